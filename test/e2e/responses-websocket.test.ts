/**
 * The Responses WebSocket transport end to end: a `ws` client opens
 * `GET /v1/responses` on a running gateway and sends `response.create`
 * messages, as Codex's built-in provider does, through the simulator, a
 * translating anthropic fake and a pass-through openai-responses fake. Each
 * turn gets the stream's events as text messages ending in its terminal
 * event; `previous_response_id` with `store: false` continues a turn of the
 * same socket (connection-local state); a warm-up (`generate: false`) calls
 * no upstream; each generated turn writes its own request log; a refused key
 * is a 401 before the upgrade; the transport turned off answers 426. The
 * official `openai` SDK's WebSocket client (`ResponsesWS`) chains two turns.
 */
import net from 'node:net';
import { pino } from 'pino';
import OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codexFake } from '../families/responses/codex-fakes.js';
import { silentAfter, startFakeUpstream, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { sseFrames } from '../upstreams/support/fixtures.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

type Json = Record<string, any>;

const KEY = 'sk-client-websocket';
let fakes: FakeUpstream;
let native: FakeUpstream;
let gw: TestGateway;

const nativeResponse = (id: string, text: string) => ({
  id,
  object: 'response',
  created_at: 1,
  status: 'completed',
  model: 'gpt-native',
  store: false,
  output: [{ id: `msg_${id}`, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] }],
  usage: { input_tokens: 5, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 6 },
});

beforeAll(async () => {
  fakes = await startFakeUpstream(codexFake);
  let turn = 0;
  native = await startFakeUpstream(() => {
    const response = nativeResponse(`resp_up${++turn}`, 'native');
    return {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      chunks: [
        `event: response.created\ndata: ${JSON.stringify({ type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress', output: [], usage: null } })}\n\n`,
        `event: response.completed\ndata: ${JSON.stringify({ type: 'response.completed', sequence_number: 1, response })}\n\n`,
      ],
    };
  });
  gw = await startGateway({
    config: {
      channels: [
        { name: 'sim', type: 'simulator', models: ['sim-*'] },
        { name: 'claude', type: 'anthropic', baseUrl: fakes.origin, apiKey: 'sk-up', models: ['claude-*'] },
        { name: 'native', type: 'openai-responses', baseUrl: `${native.origin}/v1`, apiKey: 'sk-up', models: ['gpt-*'] },
      ],
      keys: [{ name: 'ws', key: KEY }],
    },
  });
}, 60_000);

afterAll(async () => {
  await gw?.close();
  await fakes?.close();
  await native?.close();
});

/** A socket that collects messages; `turn` sends one response.create and resolves with its events up to the terminal one. */
async function connect(headers: Record<string, string> = { authorization: `Bearer ${KEY}` }, url = gw.url): Promise<{ socket: WebSocket; next(): Promise<Json>; turn(body: Json): Promise<Json[]> }> {
  const socket = new WebSocket(`${url.replace('http', 'ws')}/v1/responses`, { headers });
  const queue: Json[] = [];
  let wake: (() => void) | undefined;
  socket.on('message', (data) => {
    queue.push(JSON.parse(String(data)));
    wake?.();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const next = async (): Promise<Json> => {
    while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return queue.shift()!;
  };
  return {
    socket,
    next,
    async turn(body) {
      socket.send(JSON.stringify({ type: 'response.create', ...body }));
      const events: Json[] = [];
      for (;;) {
        const event = await next();
        events.push(event);
        if (['response.completed', 'response.incomplete', 'response.failed', 'error'].includes(event.type)) return events;
      }
    },
  };
}

/** The handshake's HTTP answer when the server refuses the upgrade. */
function refusal(url: string, headers: Record<string, string>): Promise<{ status: number; body: Json }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.on('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    });
    socket.on('open', () => reject(new Error('the handshake was accepted')));
    socket.on('error', () => undefined);
  });
}

const userText = (text: string) => [{ type: 'message', role: 'user', content: [{ type: 'input_text', text }] }];
const terminal = (events: Json[]) => events.at(-1)!;

describe('Responses WebSocket', () => {
  it("serves a turn through the simulator with the stream's events in order", async () => {
    const { socket, turn } = await connect();
    const events = await turn({ model: 'sim-model', input: userText('Hello') });
    expect(events[0].type).toBe('response.created');
    expect(terminal(events)).toMatchObject({ type: 'response.completed', response: { status: 'completed' } });
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, i) => i));
    socket.close();
  });

  it("serves the official openai SDK's WebSocket client (ResponsesWS), two chained turns", async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const socket = new ResponsesWS(client);
    const events = socket.stream();
    const completed = async (): Promise<Json> => {
      for (;;) {
        const { value, done } = await events.next();
        if (done) throw new Error('the socket closed before the turn ended');
        if (value.type === 'error') throw value.error;
        if (value.type === 'message' && value.message.type === 'response.completed') return value.message.response as unknown as Json;
      }
    };
    socket.send({ type: 'response.create', model: 'claude-sdk', store: false, input: 'First question' } as never);
    const first = await completed();
    expect(first.status).toBe('completed');
    socket.send({ type: 'response.create', model: 'claude-sdk', store: false, previous_response_id: first.id, input: 'Second question' } as never);
    const second = await completed();
    expect(second).toMatchObject({ status: 'completed', previous_response_id: first.id });
    expect(JSON.stringify(fakes.requests.at(-1)!.json<Json>().messages)).toContain('First question');
    socket.close();
  });

  it('translates to an anthropic upstream, and continues a store:false turn on the same socket by previous_response_id', async () => {
    const { socket, turn } = await connect();
    const first = await turn({ model: 'claude-x', store: false, input: userText('Say something') });
    const done = terminal(first);
    expect(done).toMatchObject({ type: 'response.completed' });
    expect(first.some((event) => event.type === 'response.output_text.delta')).toBe(true);
    const before = fakes.requests.length;
    const second = await turn({ model: 'claude-x', store: false, previous_response_id: done.response.id, input: userText('And again') });
    expect(terminal(second)).toMatchObject({ type: 'response.completed', response: { previous_response_id: done.response.id } });
    const sent = fakes.requests[before]!.json<Json>();
    // The earlier turn came from the socket's own memory: nothing was stored.
    expect(JSON.stringify(sent.messages)).toContain('Say something');
    expect(JSON.stringify(sent.messages)).toContain('And again');
    socket.close();

    // Another socket does not know the first one's unstored turns.
    const other = await connect();
    const refused = await other.turn({ model: 'claude-x', store: false, previous_response_id: done.response.id, input: userText('x') });
    expect(terminal(refused)).toMatchObject({ type: 'error', status: 404, error: { code: 'previous_response_not_found' } });
    other.socket.close();
  });

  it('passes through to an openai-responses upstream, sending the whole conversation when the previous turn was not stored', async () => {
    const { socket, turn } = await connect();
    const warm = await turn({ model: 'gpt-x', store: false, generate: false, input: userText('Context first') });
    expect(warm.map((event) => event.type)).toEqual(['response.created', 'response.completed']);
    expect(terminal(warm).response.output).toEqual([]);
    expect(native.requests).toHaveLength(0);

    const events = await turn({ model: 'gpt-x', store: false, previous_response_id: terminal(warm).response.id, input: userText('Now answer') });
    expect(terminal(events)).toMatchObject({ type: 'response.completed', response: { output: [{ content: [{ text: 'native' }] }] } });
    const sent = native.requests.at(-1)!.json<Json>();
    expect(sent).not.toHaveProperty('previous_response_id');
    expect(sent).not.toHaveProperty('type');
    expect(sent).not.toHaveProperty('generate');
    expect(sent.stream).toBe(true);
    expect(JSON.stringify(sent.input)).toContain('Context first');
    expect(JSON.stringify(sent.input)).toContain('Now answer');
    socket.close();
  });

  it('writes one request log per generated turn', async () => {
    const { socket, turn } = await connect();
    for (let i = 0; i < 2; i++) expect(terminal(await turn({ model: 'claude-logged', input: userText(`turn ${i}`) })).type).toBe('response.completed');
    socket.close();
    await gw.gateway.ctx.recorder.flush();
    const logs = (await gw.admin('GET', '/logs?model=claude-logged')).body.data as Json[];
    expect(logs).toHaveLength(2);
    expect(logs.map((log) => [log.httpStatus, log.family, log.stream, log.inputTokens, log.outputTokens])).toEqual([
      [200, 'responses', true, 50, 7],
      [200, 'responses', true, 50, 7],
    ]);
    expect(new Set(logs.map((log) => log.requestId)).size).toBe(2);
    expect(logs.every((log) => typeof log.firstByteMs === 'number')).toBe(true);
  });

  it('answers a bad message with an error event and keeps the socket open', async () => {
    const { socket, turn, next } = await connect();
    socket.send('not json');
    expect(await next()).toMatchObject({ type: 'error', status: 400, error: { message: 'the message is not valid JSON' } });
    let deep: unknown = 'x';
    for (let i = 0; i < 200; i++) deep = [deep];
    socket.send(JSON.stringify({ type: 'response.create', model: 'sim-model', input: deep }));
    expect(await next()).toMatchObject({ type: 'error', status: 400, error: { message: expect.stringMatching(/levels deep/) } });
    socket.send(JSON.stringify({ type: 'response.steer', input: [] }));
    expect(await next()).toMatchObject({ type: 'error', status: 400, error: { param: 'type', message: expect.stringMatching(/response\.steer/) } });
    const invalid = await turn({ model: 'sim-model', input: 7 });
    expect(invalid).toEqual([expect.objectContaining({ type: 'error', status: 400, error: expect.objectContaining({ type: 'invalid_request_error', param: 'input' }) })]);
    const ok = await turn({ model: 'sim-model', input: userText('still here') });
    expect(terminal(ok).type).toBe('response.completed');
    socket.close();
  });

  it('refuses a handshake without a valid key with a 401 in the OpenAI shape', async () => {
    const answer = await refusal(`${gw.url.replace('http', 'ws')}/v1/responses`, { authorization: 'Bearer sk-wrong' });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error' });
    expect(JSON.stringify(answer.body)).not.toContain('sk-wrong');
  });

  it('serves turns sent back to back one at a time, in order', async () => {
    const { socket, next } = await connect();
    socket.send(JSON.stringify({ type: 'response.create', model: 'sim-model', input: userText('first') }));
    socket.send(JSON.stringify({ type: 'response.create', model: 'sim-model', input: userText('second') }));
    const terminals: Json[] = [];
    const created: string[] = [];
    while (terminals.length < 2) {
      const event = await next();
      if (event.type === 'response.created') created.push(event.response.id);
      if (event.type === 'response.completed') terminals.push(event);
    }
    // Each turn's events end before the next turn's begin.
    expect(created).toEqual(terminals.map((event) => event.response.id));
    socket.close();
  });

  it("serves a POST that offers an h2c upgrade as plain HTTP/1.1 (Java's HttpClient, curl --http2)", async () => {
    const body = JSON.stringify({ model: 'sim-model', input: 'hi' });
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(new URL(gw.url).port), '127.0.0.1', () => {
        socket.write(
          `POST /v1/responses HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n` +
            `Authorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        );
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ object: 'response', status: 'completed' });
  });

  it('answers a plain GET with 426', async () => {
    const response = await fetch(`${gw.url}/v1/responses`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(response.status).toBe(426);
    expect(((await response.json()) as Json).error.message).toMatch(/WebSocket/);
  });
});

describe('Responses WebSocket turned off', () => {
  for (const [how, options] of [
    ['SWITCHYARD_RESPONSES_WEBSOCKET=off', { env: { SWITCHYARD_RESPONSES_WEBSOCKET: 'off' }, config: { keys: [{ name: 'ws', key: KEY }] } }],
    ['responsesWebSocket: false in the config file', { config: { responsesWebSocket: false, keys: [{ name: 'ws', key: KEY }] } }],
  ] as const) {
    it(`${how}: answers the handshake with 426 (the status Codex falls back from at once)`, async () => {
      const off = await startGateway(options);
      try {
        const answer = await refusal(`${off.url.replace('http', 'ws')}/v1/responses`, { authorization: `Bearer ${KEY}` });
        expect(answer.status).toBe(426);
        expect(answer.body.error.message).toMatch(/turned off/);
      } finally {
        await off.close();
      }
    });
  }
});

describe('Responses WebSocket access log', () => {
  it('writes one line per turn and one for the socket, with no credential', async () => {
    const lines: Json[] = [];
    const logged = await startGateway({
      logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }),
      config: { channels: [{ name: 'sim', type: 'simulator', models: ['*'] }], keys: [{ name: 'ws', key: KEY }] },
    });
    try {
      const { socket, turn } = await connect(undefined, logged.url);
      expect(terminal(await turn({ model: 'sim-model', input: userText('logged') })).type).toBe('response.completed');
      expect(terminal(await turn({ model: 'sim-model', previous_response_id: 'resp_unknown', input: userText('x') })).status).toBe(404);
      const closed = new Promise((resolve) => socket.on('close', resolve));
      socket.close();
      await closed;
      // The handshake's line is written when the server side of the socket has closed too.
      for (let i = 0; i < 100 && !lines.some((line) => line.msg === 'access' && line.method === 'GET'); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      const access = lines.filter((line) => line.msg === 'access');
      expect(access.map((line) => [line.method, line.path, line.status])).toEqual([
        ['WS', '/v1/responses', 200],
        ['WS', '/v1/responses', 404],
        ['GET', '/v1/responses', 101],
      ]);
      expect(access[0]).toMatchObject({ key: 'ws', model: 'sim-model' });
      expect(JSON.stringify(lines)).not.toContain(KEY);
    } finally {
      await logged.close();
    }
  });
});

describe('Responses WebSocket lifetime', () => {
  it('ends a turn still running when the shutdown grace period ends with a failure event, then closes the socket', async () => {
    const silent = await startFakeUpstream((request) => silentAfter(request, sseFrames('anthropic-messages', 'anthropic-text.chunks.txt').slice(0, 5)));
    const ending = await startGateway({
      env: { SWITCHYARD_SHUTDOWN_GRACE_MS: '200' },
      config: { channels: [{ name: 'claude', type: 'anthropic', baseUrl: silent.origin, apiKey: 'sk-up', models: ['*'] }], keys: [{ name: 'ws', key: KEY }] },
    });
    try {
      const { socket, next } = await connect(undefined, ending.url);
      socket.send(JSON.stringify({ type: 'response.create', model: 'claude-x', input: userText('never finishes') }));
      // The turn is running once its first text arrived.
      for (let event = await next(); event.type !== 'response.output_text.delta'; event = await next());
      const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
      const stopping = ending.gateway.close();
      const events: Json[] = [];
      for (let event = await next(); ; event = await next()) {
        events.push(event);
        if (['response.failed', 'error'].includes(event.type)) break;
      }
      expect(JSON.stringify(events.at(-1))).toMatch(/shutting down/);
      expect(await closed).toBe(1001);
      await stopping;
    } finally {
      await ending.close();
      await silent.close();
    }
  });

  it('closes a socket that waits longer than the idle setting for its next turn, and closes open sockets at shutdown', async () => {
    const short = await startGateway({
      env: { SWITCHYARD_RESPONSES_WEBSOCKET_IDLE_MS: '1000' },
      config: { channels: [{ name: 'sim', type: 'simulator', models: ['*'] }], keys: [{ name: 'ws', key: KEY }] },
    });
    try {
      const idle = await connect(undefined, short.url);
      expect(terminal(await idle.turn({ model: 'sim-model', input: userText('one turn') })).type).toBe('response.completed');
      const [code] = await new Promise<[number, string]>((resolve) => idle.socket.on('close', (closeCode, reason) => resolve([closeCode, String(reason)])));
      expect(code).toBe(1000);

      const open = await connect(undefined, short.url);
      const closed = new Promise<number>((resolve) => open.socket.on('close', (closeCode) => resolve(closeCode)));
      await short.gateway.close();
      expect(await closed).toBe(1001);
    } finally {
      await short.close();
    }
  });
});
