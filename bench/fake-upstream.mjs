/**
 * A fake model provider for the benchmark: node:http, keep-alive, no delay.
 * It parses every request body (as a real provider would) and answers with
 * fixed payloads built once at start-up (lib/fake/), so its own cost stays flat.
 *
 *   POST …/v1/messages                                   Anthropic message, or its SSE stream
 *   POST …/chat/completions                              OpenAI chat completion, or its SSE stream
 *   POST …/v1beta/models/<m>:generateContent             Gemini GenerateContentResponse
 *   POST …/v1beta/models/<m>:streamGenerateContent[?alt=sse]  its `data:`-only SSE (or a JSON array)
 *   POST …/v1/responses                                  OpenAI Response object, or its event stream
 *
 * Run alone: `node bench/fake-upstream.mjs [port]` (or FAKE_UPSTREAM_PORT);
 * it prints `fake-upstream listening on http://127.0.0.1:<port>` once ready.
 */
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { chatJson, chatStream } from './lib/fake/chat.mjs';
import { geminiJson, geminiJsonArray, geminiSseStream } from './lib/fake/gemini.mjs';
import { messagesJson, messagesStream } from './lib/fake/messages.mjs';
import { responsesAnswers } from './lib/fake/responses.mjs';

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

const geminiMethod = /\/v1beta\/models\/[^/:]+:(generateContent|streamGenerateContent)$/;

/** The answer for one parsed request, or undefined when no route matches. */
function answer(res, path, query, body) {
  const stream = body?.stream === true;
  if (path.endsWith('/v1/messages')) return stream ? sendStream(res, messagesStream) : sendJson(res, 200, messagesJson);
  if (path.endsWith('/chat/completions')) return stream ? sendStream(res, chatStream) : sendJson(res, 200, chatJson);
  if (path.endsWith('/v1/responses')) {
    const { json, stream: events } = responsesAnswers.get(body?.store !== false);
    return stream ? sendStream(res, events) : sendJson(res, 200, json);
  }
  const gemini = geminiMethod.exec(path);
  if (gemini?.[1] === 'generateContent') return sendJson(res, 200, geminiJson);
  if (gemini) return /(^|&)alt=sse(&|$)/.test(query) ? sendStream(res, geminiSseStream) : sendJson(res, 200, geminiJsonArray);
  return sendJson(res, 404, notFound);
}

function handle(req, res) {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    if (req.method !== 'POST') return sendJson(res, 404, notFound);
    const url = req.url ?? '';
    const mark = url.indexOf('?');
    const [path, query] = mark < 0 ? [url, ''] : [url.slice(0, mark), url.slice(mark + 1)];
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return sendJson(res, 400, badJson);
    }
    answer(res, path, query, body);
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
