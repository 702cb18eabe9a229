/** One benchmark session: `turns` requests of one client through the gateway, each turn appending the last answer and a new user message. */
import { Agent, request } from 'undici';
import { loopbackUrl } from '../lib/loopback.mjs';

const agent = new Agent({ connections: 32, keepAliveTimeout: 30_000, headersTimeout: 60_000, bodyTimeout: 60_000 });

async function send(baseUrl, { path, headers, body }) {
  const url = loopbackUrl(`${baseUrl}${path}`);
  const payload = JSON.stringify(body);
  const res = await request(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: payload,
    dispatcher: agent,
  });
  return { status: res.statusCode, text: await res.body.text() };
}

/**
 * Runs the session; resolves with the usage the client was told each turn
 * (`reported`), and the first failure (status and the start of its body), if any.
 */
export async function runSession({ client, baseUrl, key, model, marker, turns, stream, options }) {
  const state = client.start(marker, key, model, options);
  const reported = [];
  let calls = [];
  for (let turn = 1; turn <= turns; turn += 1) {
    if (turn > 1) client.nextTurn(state, turn, calls);
    const answer = await send(baseUrl, client.request(state, stream));
    if (answer.status !== 200) return { reported, error: `turn ${turn}: ${answer.status} ${answer.text.slice(0, 300)}` };
    let read;
    try {
      read = client.read(answer.text, stream);
    } catch (error) {
      return { reported, error: `turn ${turn}: unreadable answer (${error.message}): ${answer.text.slice(0, 300)}` };
    }
    reported.push(read.reported);
    client.append(state, read.history);
    calls = read.calls;
  }
  return { reported };
}

export const closeClients = () => agent.close();
