/**
 * A loopback HTTP server that answers every request with one canned response,
 * so the official clients can be pointed at bytes the encoders produced.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CannedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface CannedServer {
  baseUrl: string;
  /** Replaces the response served from now on. */
  respond(response: CannedResponse): void;
  /** Bodies of the requests received, parsed as JSON. */
  requests: unknown[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startCannedServer(): Promise<CannedServer> {
  let current: CannedResponse = { status: 500, headers: {}, body: 'no response set' };
  const requests: unknown[] = [];
  const server: Server = createServer((req, res) => {
    readBody(req).then((text) => {
      requests.push(text ? JSON.parse(text) : undefined);
      res.writeHead(current.status, current.headers);
      res.end(current.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    respond: (response) => {
      current = response;
    },
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
