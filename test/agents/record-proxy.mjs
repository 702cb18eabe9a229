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
 */
import http from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

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
      const upstream = http.request(
        { hostname: targetUrl.hostname, port: targetUrl.port, method: req.method, path: basePath + req.url, headers },
        (upstreamRes) => {
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
        },
      );
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
