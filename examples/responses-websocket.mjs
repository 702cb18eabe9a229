// Family E (Responses) over the Responses WebSocket, the transport Codex's
// built-in provider uses, with the official OpenAI client's WebSocket mode:
// one socket to the gateway's /v1/responses, one `response.create` per turn,
// the turn's events back as messages. The key goes in the handshake's
// Authorization: Bearer.
import OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';

const url = process.env.SWITCHYARD_URL ?? 'http://127.0.0.1:8080';
const key = process.env.SWITCHYARD_KEY; // the client key the first `npm start` printed

const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: key });
const socket = new ResponsesWS(client);
const events = socket.stream();

/** Sends one turn and prints its text as it streams; resolves with the finished response. */
async function turn(body) {
  socket.send({ type: 'response.create', ...body });
  for (;;) {
    const { value, done } = await events.next();
    if (done) throw new Error('the socket closed before the answer ended');
    if (value.type === 'error') throw value.error;
    if (value.type !== 'message') continue;
    const event = value.message;
    if (event.type === 'response.output_text.delta') process.stdout.write(event.delta);
    if (event.type === 'response.completed') {
      process.stdout.write('\n');
      return event.response;
    }
  }
}

// `store: false`: nothing is stored; the socket itself keeps the turn for the next one to build on.
const first = await turn({ model: 'gpt-5', input: 'Hello', store: false });
await turn({ model: 'gpt-5', input: 'And again', store: false, previous_response_id: first.id });
socket.close();
