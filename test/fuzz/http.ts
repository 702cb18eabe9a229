/**
 * A raw HTTP client for the fuzz suite: the path goes out exactly as given
 * (bad percent-encoding, `..%2f`, latin-1 bytes), headers may repeat, and
 * every request has a deadline, so a hang is a finding rather than a stuck
 * test. Built on node:http, which still refuses what no HTTP client can send
 * (NUL in a header value); such inputs are reported as unsendable, not sent.
 */
import http from 'node:http';

export interface FuzzRequest {
  method: string;
  /** Path and query as they go on the request line. */
  path: string;
  /** In order; a name may repeat. */
  headers: Array<[string, string]>;
  body?: string | Buffer;
}

export interface FuzzResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  ms: number;
}

export class Unsendable extends Error {}
export class Hang extends Error {}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/**
 * Sends once; a reset on a kept-alive socket the server had already closed
 * (as it does after a 431 or 413) is the client's stale socket, not an answer,
 * so that one case is sent again on a new connection.
 */
export async function send(base: string, request: FuzzRequest, timeoutMs: number): Promise<FuzzResponse> {
  try {
    return await sendOnce(base, request, timeoutMs, agent);
  } catch (error) {
    if ((error as { reusedSocket?: boolean }).reusedSocket && (error as NodeJS.ErrnoException).code === 'ECONNRESET') {
      return sendOnce(base, request, timeoutMs, false);
    }
    throw error;
  }
}

function sendOnce(base: string, request: FuzzRequest, timeoutMs: number, via: http.Agent | false): Promise<FuzzResponse> {
  const url = new URL(base);
  const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, 'utf8');
  // With headers given as a list, node:http adds no Host header itself.
  const headers = [...(request.headers.some(([name]) => name.toLowerCase() === 'host') ? [] : ['host', url.host]), ...request.headers.flat()];
  if (body !== undefined && !request.headers.some(([name]) => name.toLowerCase() === 'content-length' || name.toLowerCase() === 'transfer-encoding')) {
    headers.push('content-length', String(body.length));
  }
  const started = Date.now();
  return new Promise((resolve, reject) => {
    let outgoing: http.ClientRequest;
    try {
      outgoing = http.request({ host: url.hostname, port: url.port, method: request.method, path: request.path, headers, agent: via });
    } catch (error) {
      reject(new Unsendable((error as Error).message));
      return;
    }
    const timer = setTimeout(() => {
      outgoing.destroy(new Hang(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    outgoing.on('error', (error) => {
      clearTimeout(timer);
      reject(Object.assign(error, { reusedSocket: outgoing.reusedSocket }));
    });
    outgoing.on('response', (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      incoming.on('end', () => {
        clearTimeout(timer);
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text: Buffer.concat(chunks).toString('utf8'), ms: Date.now() - started });
      });
    });
    outgoing.end(body);
  });
}

/** Describes a request for a report: enough to replay it with curl. */
export function describeRequest(request: FuzzRequest, maxBody = 400): string {
  const headers = request.headers.map(([name, value]) => `${name}: ${clip(value, 120)}`).join('; ');
  const body = request.body === undefined ? '' : ` body=${JSON.stringify(clip(request.body.toString(), maxBody))}`;
  return `${request.method} ${clip(request.path, 300)} [${headers}]${body}`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…(${text.length} chars)`;
}
