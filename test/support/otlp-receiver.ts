/**
 * A stand-in OpenTelemetry collector on loopback: takes OTLP/HTTP JSON trace
 * exports and keeps every span, flattened, with the raw bodies and headers
 * (to check what was sent, and what never was).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean };

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP's numbering: 2 is SERVER. */
  kind: number;
  status: { code?: number };
  attributes: Record<string, string | number | boolean | undefined>;
  resource: Record<string, string | number | boolean | undefined>;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  bodies: string[];
  headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

const valueOf = (value: AnyValue) => value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue));

const attributesOf = (list: Array<{ key: string; value: AnyValue }> = []) => Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      headers.push(request.headers);
      for (const resourceSpans of JSON.parse(body).resourceSpans ?? []) {
        const resource = attributesOf(resourceSpans.resource?.attributes);
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) spans.push({ ...span, status: span.status ?? {}, attributes: attributesOf(span.attributes), resource });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    spans,
    bodies,
    headers,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
