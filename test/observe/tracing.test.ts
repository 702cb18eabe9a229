/**
 * OpenTelemetry traces: with an endpoint configured, every request becomes a
 * SERVER span exported as OTLP/HTTP JSON to a stand-in collector, with the
 * HTTP and GenAI attributes, joined to the caller's trace by `traceparent`,
 * and never holding a prompt, a key or a query string. Without one, no
 * tracer exists and no hook is installed for it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';

const PROMPT = 'a prompt that must stay out of traces';
const COLLECTOR_TOKEN = 'collector-token-7f3a';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

let receiver: OtlpReceiver;
let gw: TestGateway;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  gw = await startGateway({
    env: {
      SWITCHYARD_OTLP_TRACES_ENDPOINT: receiver.url,
      SWITCHYARD_OTLP_HEADERS: `authorization=Bearer%20${COLLECTOR_TOKEN}`,
      OTEL_SERVICE_NAME: 'gateway-under-test',
    },
    config: {
      channels: [
        { name: 'traced-sim', type: 'simulator', models: ['traced-*'], modelMapping: { 'traced-model': 'sim-upstream-model' } },
        { name: 'broken-sim', type: 'simulator', models: ['broken-*'], settings: { failStatus: 500 } },
      ],
    },
  });
});
afterAll(async () => {
  await gw?.close();
  await receiver?.close();
});

async function messages(model: string, headers: Record<string, string> = {}, query = '') {
  const response = await fetch(`${gw.url}/v1/messages${query}`, {
    method: 'POST',
    headers: { 'x-api-key': gw.clientKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model, max_tokens: 30, messages: [{ role: 'user', content: PROMPT }] }),
  });
  await response.text();
  return { status: response.status, requestId: response.headers.get('x-request-id')! };
}

/** The span of one request: it ends when the response closes, then the batch is flushed. */
async function spanOf(requestId: string): Promise<ReceivedSpan> {
  for (let i = 0; i < 100; i++) {
    await gw.gateway.ctx.tracer!.forceFlush();
    const found = receiver.spans.find((span) => span.attributes['switchyard.request_id'] === requestId);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no span for ${requestId}`);
}

describe('traces on', () => {
  it('exports a SERVER span per Messages request with the HTTP and GenAI attributes, in the caller’s trace', async () => {
    const { status, requestId } = await messages('traced-model', { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` }, '?beta=true&key=secret-in-query');
    expect(status).toBe(200);
    const span = await spanOf(requestId);
    expect(span.name).toBe('POST /v1/messages');
    expect(span.kind).toBe(2);
    expect(span.traceId).toBe(TRACE_ID);
    expect(span.parentSpanId).toBe(PARENT_ID);
    expect(span.status.code ?? 0).not.toBe(2);
    expect(span.resource['service.name']).toBe('gateway-under-test');
    expect(span.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.path': '/v1/messages',
      'http.route': '/v1/messages',
      'http.response.status_code': 200,
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'simulator',
      'gen_ai.request.model': 'traced-model',
      'gen_ai.response.model': 'sim-upstream-model',
      'switchyard.channel': 'traced-sim',
      'switchyard.channel_type': 'simulator',
      'switchyard.key': 'default',
      'switchyard.attempts': 1,
      'switchyard.family': 'messages',
    });
    expect(span.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(span.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
  });

  it('counts the tokens of a streamed answer', async () => {
    const response = await fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': gw.clientKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'traced-model', max_tokens: 30, stream: true, messages: [{ role: 'user', content: PROMPT }] }),
    });
    expect(await response.text()).toContain('message_stop');
    const span = await spanOf(response.headers.get('x-request-id')!);
    expect(span.attributes).toMatchObject({ 'http.response.status_code': 200, 'gen_ai.operation.name': 'chat', 'gen_ai.response.model': 'sim-upstream-model' });
    expect(span.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
  });

  it('starts a new trace without a traceparent', async () => {
    const { requestId } = await messages('traced-model');
    const span = await spanOf(requestId);
    expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(span.traceId).not.toBe(TRACE_ID);
    expect(span.parentSpanId ?? '').toBe('');
  });

  it('marks a request that failed upstream as an error, without token counts', async () => {
    const { status, requestId } = await messages('broken-model');
    expect(status).toBeGreaterThanOrEqual(500);
    const span = await spanOf(requestId);
    expect(span.status.code).toBe(2);
    expect(span.attributes).toMatchObject({
      'http.response.status_code': status,
      'error.type': String(status),
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'broken-model',
      'switchyard.attempts': 1,
    });
    expect(span.attributes['gen_ai.usage.input_tokens']).toBeUndefined();
  });

  it('names the embeddings operation', async () => {
    const response = await fetch(`${gw.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.clientKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'traced-embedder', input: PROMPT }),
    });
    expect(response.status).toBe(200);
    const span = await spanOf(response.headers.get('x-request-id')!);
    expect(span.name).toBe('POST /v1/embeddings');
    expect(span.attributes).toMatchObject({ 'gen_ai.operation.name': 'embeddings', 'gen_ai.request.model': 'traced-embedder', 'switchyard.family': 'embeddings' });
    expect(span.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
  });

  it('names an unmatched request by its method alone, and leaves health probes out', async () => {
    const missing = await fetch(`${gw.url}/no/such/path?token=abc`);
    await missing.text();
    expect(missing.status).toBe(404);
    const span = await spanOf(missing.headers.get('x-request-id')!);
    expect(span.name).toBe('GET');
    expect(span.attributes['http.route']).toBeUndefined();
    expect(span.attributes['url.path']).toBe('/no/such/path');

    const health = await fetch(`${gw.url}/healthz`);
    await health.text();
    await gw.gateway.ctx.tracer!.forceFlush();
    expect(receiver.spans.some((span) => span.attributes['url.path'] === '/healthz')).toBe(false);
  });

  it('sends the configured headers to the collector, and no prompt, key or query string in any span', async () => {
    await gw.gateway.ctx.tracer!.forceFlush();
    expect(receiver.headers.length).toBeGreaterThan(0);
    expect(receiver.headers.every((headers) => headers.authorization === `Bearer ${COLLECTOR_TOKEN}`)).toBe(true);
    expect(receiver.headers[0]['content-type']).toBe('application/json');
    const sent = receiver.bodies.join('\n');
    for (const secret of [PROMPT, gw.clientKey, gw.adminKey, 'secret-in-query', 'token=abc', COLLECTOR_TOKEN]) expect(sent).not.toContain(secret);
  });
});

describe('sampling', () => {
  it('records none of its own traces at 0, and follows a sampled caller', async () => {
    const sampledOut = await startGateway({ env: { SWITCHYARD_OTLP_TRACES_ENDPOINT: receiver.url, SWITCHYARD_TRACE_SAMPLE: '0' } });
    try {
      const ask = (headers: Record<string, string>) =>
        fetch(`${sampledOut.url}/v1/messages`, {
          method: 'POST',
          headers: { 'x-api-key': sampledOut.clientKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ model: 'any-model', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }),
        }).then(async (response) => {
          await response.text();
          return response.headers.get('x-request-id')!;
        });
      const own = await ask({});
      const followed = await ask({ traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` });
      const declined = await ask({ traceparent: `00-${TRACE_ID}-${PARENT_ID}-00` });
      let span: ReceivedSpan | undefined;
      for (let i = 0; i < 100 && !span; i++) {
        await sampledOut.gateway.ctx.tracer!.forceFlush();
        span = receiver.spans.find((candidate) => candidate.attributes['switchyard.request_id'] === followed);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(span?.traceId).toBe(TRACE_ID);
      const ids = receiver.spans.map((candidate) => candidate.attributes['switchyard.request_id']);
      expect(ids).not.toContain(own);
      expect(ids).not.toContain(declined);
    } finally {
      await sampledOut.close();
    }
  });
});

describe('traces off', () => {
  it('has no tracer, and with the access log off no request hook at all', async () => {
    const quiet = await startGateway({ env: { SWITCHYARD_ACCESS_LOG: 'off' } });
    try {
      expect(quiet.gateway.ctx.settings.traces).toBeUndefined();
      expect(quiet.gateway.ctx.tracer).toBeUndefined();
      expect(quiet.gateway.ctx.accessNotes.enabled).toBe(false);
      expect(onRequestHooks(quiet)).toBe(onRequestHooks(gw) - 1);
    } finally {
      await quiet.close();
    }
  });
});

/** Fastify keeps its hooks behind a symbol; counted to show that nothing is added for tracing when it is off. */
function onRequestHooks(test: TestGateway): number {
  const app = test.gateway.app as unknown as Record<symbol, { onRequest?: unknown[] }>;
  const symbol = Object.getOwnPropertySymbols(app).find((candidate) => candidate.description === 'fastify.hooks');
  return app[symbol!].onRequest!.length;
}
