/**
 * A fake model provider for the benchmark: node:http, keep-alive, no delay.
 * It parses every request body (as a real provider would) and answers with
 * fixed payloads built once at start-up, so its own cost stays flat.
 *
 *   POST …/v1/messages          Anthropic message, or its SSE stream
 *   POST …/chat/completions     OpenAI chat completion, or its SSE stream
 *
 * Run alone: `node bench/fake-upstream.mjs [port]` (or FAKE_UPSTREAM_PORT);
 * it prints `fake-upstream listening on http://127.0.0.1:<port>` once ready.
 */
import http from 'node:http';
import { pathToFileURL } from 'node:url';

const CREATED = 1_767_225_600;

const anthropicMessage = Buffer.from(
  JSON.stringify({
    id: 'msg_bench_0001',
    type: 'message',
    role: 'assistant',
    model: 'pass-model',
    content: [{ type: 'text', text: 'Hello from the fake upstream.' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 8, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  }),
);

function sseEvent(name, data) {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Nine events: start, block start, ping, three text deltas, block stop, delta with usage, stop. */
const anthropicStream = [
  sseEvent('message_start', {
    type: 'message_start',
    message: {
      id: 'msg_bench_0001',
      type: 'message',
      role: 'assistant',
      model: 'pass-model',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 8, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
  }),
  sseEvent('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  sseEvent('ping', { type: 'ping' }),
  ...['Hello', ' from the', ' fake upstream.'].map((text) =>
    sseEvent('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),
  ),
  sseEvent('content_block_stop', { type: 'content_block_stop', index: 0 }),
  sseEvent('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 7 },
  }),
  sseEvent('message_stop', { type: 'message_stop' }),
].map((text) => Buffer.from(text));

const chatCompletion = Buffer.from(
  JSON.stringify({
    id: 'chatcmpl-bench0001',
    object: 'chat.completion',
    created: CREATED,
    model: 'translated-model',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: 'Hello from the fake upstream.', refusal: null },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: 8, completion_tokens: 7, total_tokens: 15 },
    system_fingerprint: 'fp_bench',
  }),
);

function chatChunk(delta, finishReason, usage) {
  const chunk = {
    id: 'chatcmpl-bench0001',
    object: 'chat.completion.chunk',
    created: CREATED,
    model: 'translated-model',
    system_fingerprint: 'fp_bench',
    choices: usage ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
  if (usage) chunk.usage = usage;
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** Seven chunks (role, five text pieces, finish), then the usage chunk and [DONE]. */
const chatStream = [
  chatChunk({ role: 'assistant', content: '' }, null),
  ...['Hello', ' from', ' the', ' fake', ' upstream.'].map((content) => chatChunk({ content }, null)),
  chatChunk({}, 'stop'),
  chatChunk(undefined, null, { prompt_tokens: 8, completion_tokens: 7, total_tokens: 15 }),
  'data: [DONE]\n\n',
].map((text) => Buffer.from(text));

const JSON_HEADERS = { 'content-type': 'application/json' };
const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

function sendJson(res, status, payload) {
  res.writeHead(status, { ...JSON_HEADERS, 'content-length': payload.length });
  res.end(payload);
}

function sendStream(res, events) {
  res.writeHead(200, SSE_HEADERS);
  // Each event is its own write, as a provider emitting tokens would do.
  for (const event of events) res.write(event);
  res.end();
}

const notFound = Buffer.from(JSON.stringify({ error: { type: 'not_found_error', message: 'no such route' } }));
const badJson = Buffer.from(JSON.stringify({ error: { type: 'invalid_request_error', message: 'body is not JSON' } }));

function handle(req, res) {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const url = req.url ?? '';
    const isMessages = url.endsWith('/v1/messages');
    const isChat = url.endsWith('/chat/completions');
    if (req.method !== 'POST' || (!isMessages && !isChat)) return sendJson(res, 404, notFound);
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return sendJson(res, 400, badJson);
    }
    const stream = body?.stream === true;
    if (isMessages) return stream ? sendStream(res, anthropicStream) : sendJson(res, 200, anthropicMessage);
    return stream ? sendStream(res, chatStream) : sendJson(res, 200, chatCompletion);
  });
}

/** Starts the fake upstream on 127.0.0.1; resolves once it listens. */
export function startFakeUpstream({ port = 0, host = '127.0.0.1' } = {}) {
  const server = http.createServer({ keepAlive: true }, handle);
  // Clients keep connections across pauses between benchmark phases.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 130_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({
        port: address.port,
        url: `http://${host}:${address.port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const port = Number(process.argv[2] ?? process.env.FAKE_UPSTREAM_PORT ?? 0);
  const upstream = await startFakeUpstream({ port });
  process.stdout.write(`fake-upstream listening on ${upstream.url}\n`);
  const stop = () => upstream.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
