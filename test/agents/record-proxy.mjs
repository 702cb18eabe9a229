#!/usr/bin/env node
/**
 * A recording reverse proxy on loopback. Every request is forwarded to the
 * target unchanged (streaming both ways) and recorded: method, path+query,
 * headers (credentials redacted), the body (parsed JSON when it is JSON), the
 * response status and headers, and for non-2xx answers the response body.
 *
 *   node record-proxy.mjs --target http://127.0.0.1:8080 [--port 0] [--out DIR]
 *
 * With --out, each exchange is written to DIR/NNN.json when it completes.
 * Used in-process by run.mjs and record.mjs through startRecordProxy().
 *
 * WebSocket handshakes (the Responses WebSocket Codex's built-in provider
 * opens on GET /v1/responses) are forwarded too: the proxy opens the same
 * socket to the target with the client's headers and relays every message
 * both ways. The handshake is recorded as a GET (status 101, or the target's
 * refusal with its body), and each `response.create` message as one record
 * with method `WS`: the message as its body, the event types that answered
 * it, the types of its finished output items (`items`), and as status 200 at
 * its terminal event or the `error` event's status.
 */
import http from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

// `ws` is the gateway's own dependency, found in the repository's node_modules; loaded at the first handshake.
const requireFromHere = createRequire(import.meta.url);
let wsModule;
const ws = () => (wsModule ??= requireFromHere('ws'));

const TERMINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);
/** Handshake headers the proxy's own socket to the target sets itself. */
const HANDSHAKE_HEADERS = new Set(['host', 'connection', 'upgrade', 'sec-websocket-key', 'sec-websocket-version', 'sec-websocket-extensions']);

const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key', 'cookie', 'proxy-authorization', 'chatgpt-account-id']);
const SECRET_QUERY = new Set(['key', 'api_key', 'apikey', 'access_token']);

/** Headers with credentials replaced by "<redacted>" (the scheme of an Authorization header is kept). */
export function redactHeaders(headers) {
  const out = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!SECRET_HEADERS.has(lower)) out[lower] = value;
    else if (typeof value === 'string' && /^(bearer|basic)\s/i.test(value)) out[lower] = `${value.split(/\s/)[0]} <redacted>`;
    else out[lower] = '<redacted>';
  }
  return out;
}

/** The path and query with credential query parameters redacted. */
export function redactPath(url) {
  const parsed = new URL(url, 'http://x');
  for (const name of [...parsed.searchParams.keys()]) if (SECRET_QUERY.has(name.toLowerCase())) parsed.searchParams.set(name, '<redacted>');
  return parsed.pathname + (parsed.search ? parsed.search.replaceAll('%3Credacted%3E', '<redacted>') : '');
}

function decode(buffer, encoding) {
  try {
    if (!encoding || encoding === 'identity') return buffer;
    if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.gunzipSync(buffer);
    if (encoding === 'deflate') return zlib.inflateSync(buffer);
    if (encoding === 'br') return zlib.brotliDecompressSync(buffer);
    if (encoding === 'zstd' && typeof zlib.zstdDecompressSync === 'function') return zlib.zstdDecompressSync(buffer);
  } catch {
    // fall through: keep the raw bytes
  }
  return null;
}

/** A body as recorded: parsed JSON, else text, else base64 of undecodable bytes. */
export function bodyForRecord(buffer, encoding) {
  if (!buffer || buffer.length === 0) return null;
  const plain = decode(buffer, encoding);
  if (!plain) return { encoding, base64: buffer.toString('base64') };
  const text = plain.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Starts the proxy. Returns { url, records, close }. `records` fills as
 * exchanges complete; `onRecord(record)` is called for each.
 */
export async function startRecordProxy({ target, port = 0, out, onRecord, label } = {}) {
  if (!target) throw new Error('record proxy: target is required');
  const targetUrl = new URL(target);
  const records = [];
  let seq = 0;
  if (out) mkdirSync(out, { recursive: true });

  const server = http.createServer((req, res) => {
    const n = ++seq;
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const requestBody = Buffer.concat(chunks);
      const record = {
        seq: n,
        label,
        time: new Date().toISOString(),
        method: req.method,
        path: redactPath(req.url),
        headers: redactHeaders(req.headers),
        body: bodyForRecord(requestBody, req.headers['content-encoding']),
        response: null,
      };
      const headers = { ...req.headers, host: targetUrl.host };
      const basePath = targetUrl.pathname.replace(/\/+$/, '');
      const upstream = http.request({ hostname: targetUrl.hostname, port: targetUrl.port, method: req.method, path: basePath + req.url, headers }, (upstreamRes) => {
        res.writeHead(upstreamRes.statusCode, upstreamRes.headers);
        const ok = upstreamRes.statusCode >= 200 && upstreamRes.statusCode < 300;
        const responseChunks = [];
        upstreamRes.on('data', (chunk) => {
          if (!ok) responseChunks.push(chunk);
          res.write(chunk);
        });
        upstreamRes.on('end', () => {
          res.end();
          record.response = {
            status: upstreamRes.statusCode,
            contentType: upstreamRes.headers['content-type'] ?? null,
            ...(ok ? {} : { body: bodyForRecord(Buffer.concat(responseChunks), upstreamRes.headers['content-encoding']) }),
          };
          finish(record);
        });
        upstreamRes.on('error', (error) => {
          record.response = { status: upstreamRes.statusCode, error: String(error) };
          res.destroy();
          finish(record);
        });
      });
      upstream.on('error', (error) => {
        record.response = { status: 502, error: `proxy: ${error.message}` };
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `record proxy could not reach ${target}: ${error.message}` } }));
        finish(record);
      });
      req.on('aborted', () => upstream.destroy());
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });
      upstream.end(requestBody);
    });
  });

  server.on('upgrade', (req, socket, head) => forwardWebSocket(req, socket, head));

  /** One WebSocket: the target's socket first, then the client's handshake completed and every message relayed and recorded. */
  function forwardWebSocket(req, socket, head) {
    const { WebSocket, WebSocketServer } = ws();
    const record = { seq: ++seq, label, time: new Date().toISOString(), method: 'GET', path: redactPath(req.url), headers: redactHeaders(req.headers), body: null, response: null };
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !HANDSHAKE_HEADERS.has(name)));
    const basePath = targetUrl.pathname.replace(/\/+$/, '');
    const target = new WebSocket(`${targetUrl.protocol === 'https:' ? 'wss' : 'ws'}://${targetUrl.host}${basePath}${req.url}`, { headers });
    let opened = false;
    target.on('unexpected-response', (_request, response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        record.response = { status: response.statusCode, contentType: response.headers['content-type'] ?? null, body: bodyForRecord(body, response.headers['content-encoding']) };
        const lines = [`HTTP/1.1 ${response.statusCode} ${response.statusMessage}`];
        for (const [name, value] of Object.entries(response.headers)) if (!['connection', 'transfer-encoding', 'content-length'].includes(name)) lines.push(`${name}: ${value}`);
        lines.push(`content-length: ${body.length}`, 'connection: close', '', '');
        socket.end(Buffer.concat([Buffer.from(lines.join('\r\n')), body]));
        finish(record);
      });
    });
    target.on('error', (error) => {
      if (opened || record.response) return;
      record.response = { status: 502, error: `proxy: ${error.message}` };
      socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
      finish(record);
    });
    target.on('open', () => {
      opened = true;
      record.response = { status: 101 };
      finish(record);
      new WebSocketServer({ noServer: true }).handleUpgrade(req, socket, head, (client) => relay(client, target, record.path));
    });
  }

  function relay(client, target, recordPath) {
    /** Turns sent and not yet answered to their end, oldest first. */
    const turns = [];
    const endTurn = (turn, response) => {
      turn.response = response;
      finish(turn);
    };
    client.on('message', (data, isBinary) => {
      if (target.readyState === 1) target.send(data, { binary: isBinary });
      let message = null;
      try {
        message = JSON.parse(String(data));
      } catch {
        // not JSON: relayed, not recorded as a turn
      }
      if (message?.type !== 'response.create') return;
      turns.push({ seq: ++seq, label, time: new Date().toISOString(), method: 'WS', path: recordPath, headers: {}, body: message, events: [], items: [], response: null });
    });
    target.on('message', (data, isBinary) => {
      if (client.readyState === 1) client.send(data, { binary: isBinary });
      let event = null;
      try {
        event = JSON.parse(String(data));
      } catch {
        return;
      }
      const turn = turns[0];
      if (!turn) return;
      turn.events.push(event.type);
      if (event.type === 'response.output_item.done' && typeof event.item?.type === 'string') turn.items.push(event.item.type);
      if (TERMINAL_EVENTS.has(event.type)) endTurn(turns.shift(), { status: 200, terminal: event.type, responseStatus: event.response?.status ?? null });
      else if (event.type === 'error') endTurn(turns.shift(), { status: Number(event.status ?? 400), body: event });
    });
    const closeBoth = () => {
      for (const turn of turns.splice(0)) endTurn(turn, { status: 0, error: 'the socket closed before the turn ended' });
      if (client.readyState <= 1) client.close();
      if (target.readyState <= 1) target.close();
    };
    client.on('close', closeBoth);
    target.on('close', closeBoth);
    client.on('error', closeBoth);
    target.on('error', closeBoth);
  }

  function finish(record) {
    records.push(record);
    if (out) writeFileSync(path.join(out, `${String(record.seq).padStart(3, '0')}.json`), JSON.stringify(record, null, 2) + '\n');
    onRecord?.(record);
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    records,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const option = (name) => {
    const index = args.indexOf(`--${name}`);
    return index >= 0 ? args[index + 1] : undefined;
  };
  const proxy = await startRecordProxy({
    target: option('target'),
    port: Number(option('port') ?? 0),
    out: option('out'),
    onRecord: (r) => process.stdout.write(`${r.seq} ${r.method} ${r.path} -> ${r.response?.status}\n`),
  });
  process.stdout.write(`recording proxy on ${proxy.url} -> ${option('target')}\n`);
  const stop = () => proxy.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
