/**
 * The reference floor: the least a Node JSON proxy can do per request.
 * node:http server → undici Pool → upstream; the request body is parsed and
 * re-serialised, a JSON answer is parsed and re-serialised, an SSE answer is
 * piped through. No auth, no routing, no logs: whatever the gateway costs
 * beyond this is its own work; this much is Node's and the machine's.
 *
 *   node bench/floor-proxy.mjs <upstream origin> [port]
 * prints `floor-proxy listening on http://127.0.0.1:<port>` once ready.
 */
import http from 'node:http';
import { Pool } from 'undici';
import { loopbackUrl } from './lib/loopback.mjs';

const upstream = loopbackUrl(process.argv[2] ?? '');
const pool = new Pool(upstream.origin, { connections: 128, pipelining: 1 });

function fail(res, error) {
  if (res.headersSent) return res.destroy(error);
  const body = JSON.stringify({ error: { type: 'api_error', message: error.message } });
  res.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function forward(req, res, raw) {
  const body = JSON.stringify(JSON.parse(raw.toString('utf8')));
  const answer = await pool.request({
    path: req.url,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'x', authorization: 'Bearer x' },
    body,
  });
  const type = answer.headers['content-type'] ?? 'application/json';
  if (type.startsWith('text/event-stream')) {
    res.writeHead(answer.statusCode, { 'content-type': type, 'cache-control': 'no-cache' });
    for await (const chunk of answer.body) res.write(chunk);
    res.end();
    return;
  }
  const json = JSON.stringify(JSON.parse(await answer.body.text()));
  res.writeHead(answer.statusCode, { 'content-type': type, 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

const server = http.createServer({ keepAlive: true }, (req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => forward(req, res, Buffer.concat(chunks)).catch((error) => fail(res, error)));
});
server.keepAliveTimeout = 120_000;
server.headersTimeout = 130_000;
server.listen(Number(process.argv[3] ?? 0), '127.0.0.1', () => {
  process.stdout.write(`floor-proxy listening on http://127.0.0.1:${server.address().port}\n`);
});
const stop = () => {
  server.closeAllConnections();
  server.close(() => pool.close().then(() => process.exit(0)));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
