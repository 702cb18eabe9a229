/**
 * `POST /v1/rerank` with plain fetch (no official client), on SQLite and
 * PostgreSQL: the simulator's deterministic ranking, a rerank-capable
 * OpenAI-compatible server (a loopback fake of vLLM's `/v1/rerank`) given the
 * body as it is, the vLLM preset's default endpoint, 400s naming the field,
 * the 404 of a model no rerank channel serves, failover, and the log rows
 * and costs (per input token).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';

const KEY = 'sk-client-rerank-01';
const DOCUMENTS = ['Paris is the capital of France', 'The cat sat on the mat', 'France exports wine and cheese'];

const vllmAnswer = {
  id: 'rerank-up-1',
  model: 'bge-reranker-v2-m3',
  usage: { total_tokens: 12 },
  results: [
    { index: 0, document: { text: DOCUMENTS[0] }, relevance_score: 0.98 },
    { index: 2, document: { text: DOCUMENTS[2] }, relevance_score: 0.4 },
  ],
};

describe.each(ENGINES)('rerank on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;
  let upstream: FakeUpstream;

  const rerank = async (body: unknown, path = '/v1/rerank') => {
    const response = await fetch(`${gw.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as any };
  };
  const logsFor = async (model: string) => {
    await gw.gateway.ctx.recorder.flush();
    return (await gw.admin('GET', `/logs?model=${model}`)).body.data as any[];
  };

  beforeAll(async () => {
    upstream = await startFakeUpstream((request) =>
      request.json<{ query?: string }>().query === 'refuse me'
        ? {
            status: 400,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ error: { message: 'top_n too large', type: 'invalid_request_error', param: 'top_n', code: 'bad_top_n' } }),
          }
        : { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(vllmAnswer) },
    );
    place = await createPlace(engine);
    gw = await place.start({
      config: {
        channels: [
          { name: 'vllm', type: 'openai-chat', baseUrl: `${upstream.origin}/v1`, models: ['bge-reranker-v2-m3'], settings: { rerankEndpoint: '/rerank' } },
          { name: 'vllm-preset', type: 'openai-chat', baseUrl: `${upstream.origin}/v1`, models: ['preset-reranker'], settings: { preset: 'vllm' } },
          { name: 'chat-only', type: 'openai-chat', baseUrl: `${upstream.origin}/v1`, models: ['chat-only-model'] },
          { name: 'down', type: 'simulator', models: ['rerank-failover'], priority: 10, settings: { failStatus: 503 } },
          { name: 'sim', type: 'simulator', models: ['rerank-sim', 'rerank-failover'], priority: 1 },
        ],
        keys: [{ name: 'client', key: KEY }],
        prices: { 'rerank-sim': { input: 2, output: 0 }, 'bge-reranker-v2-m3': { input: 1, output: 0 } },
      },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
    await upstream?.close();
  });

  it('ranks by word overlap on the simulator, the same on every run, in the Cohere v2/Jina shape', async () => {
    const body = { model: 'rerank-sim', query: 'capital of France', documents: DOCUMENTS };
    const first = await rerank(body);
    expect(first.status).toBe(200);
    expect(first.body.results.map((r: any) => r.index)).toEqual([0, 2, 1]);
    expect(first.body.results[0].relevance_score).toBeGreaterThan(first.body.results[1].relevance_score);
    expect(first.body.results[0]).not.toHaveProperty('document');
    expect(first.body).toMatchObject({ model: 'rerank-sim', usage: { prompt_tokens: expect.any(Number) }, meta: { billed_units: { search_units: 1 } } });
    expect(typeof first.body.id).toBe('string');
    const second = await rerank(body);
    expect(second.body.results).toEqual(first.body.results);
  });

  it('takes documents as objects with text, top_n and return_documents; also at /rerank and /v2/rerank', async () => {
    const body = { model: 'rerank-sim', query: 'cat', documents: DOCUMENTS.map((text) => ({ text, id: text.length })), top_n: 1, return_documents: true };
    for (const path of ['/v1/rerank', '/rerank', '/v2/rerank']) {
      const answer = await rerank(body, path);
      expect(answer.status).toBe(200);
      expect(answer.body.results).toEqual([{ index: 1, relevance_score: expect.any(Number), document: { text: DOCUMENTS[1] } }]);
    }
  });

  it('logs the rerank family with input tokens and their cost', async () => {
    const answer = await rerank({ model: 'rerank-sim', query: 'wine', documents: DOCUMENTS });
    const [row] = await logsFor('rerank-sim');
    expect(row).toMatchObject({ family: 'rerank', httpStatus: 200, outputTokens: 0, inputTokens: answer.body.usage.prompt_tokens });
    expect(row.inputTokens).toBeGreaterThan(0);
    expect(row.cost).toBeCloseTo((row.inputTokens * 2) / 1_000_000, 12);
  });

  it("passes the body as it is to a server's rerank endpoint and bills its reported tokens", async () => {
    const body = { model: 'bge-reranker-v2-m3', query: 'capital of France', documents: DOCUMENTS, top_n: 2, max_chunks_per_doc: 4, return_documents: true };
    const answer = await rerank(body);
    expect(answer).toEqual({ status: 200, body: vllmAnswer });
    const seen = upstream.requests.at(-1)!;
    expect(seen.url).toBe('/v1/rerank');
    expect(seen.headers.authorization).toBeUndefined();
    expect(seen.json()).toEqual(body);
    const [row] = await logsFor('bge-reranker-v2-m3');
    expect(row).toMatchObject({ family: 'rerank', inputTokens: 12, estimated: false });
    expect(row.cost).toBeCloseTo(12 / 1_000_000, 12);
  });

  it("gives a vLLM preset channel the server's /rerank by default", async () => {
    const answer = await rerank({ model: 'preset-reranker', query: 'q', documents: ['a'] });
    expect(answer.status).toBe(200);
    expect(upstream.requests.at(-1)!.url).toBe('/v1/rerank');
  });

  it("gives a client the server's refusal in the OpenAI shape, its param and code kept", async () => {
    const answer = await rerank({ model: 'bge-reranker-v2-m3', query: 'refuse me', documents: ['a'], top_n: 99 });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', param: 'top_n', code: 'bad_top_n' });
    const [row] = await logsFor('bge-reranker-v2-m3');
    expect(row).toMatchObject({ family: 'rerank', httpStatus: 400, cost: 0 });
  });

  it('answers bad input with a 400 naming the field, in the OpenAI shape', async () => {
    const cases: Array<[unknown, string]> = [
      [{ model: 'rerank-sim', documents: ['a'] }, 'query'],
      [{ model: 'rerank-sim', query: 'q', documents: [] }, 'documents'],
      [{ model: 'rerank-sim', query: 'q', documents: [{ title: 'no text' }] }, 'documents[0].text'],
      [{ model: 'rerank-sim', query: 'q', documents: ['a'], top_n: 0 }, 'top_n'],
      [{ query: 'q', documents: ['a'] }, 'model'],
    ];
    for (const [body, param] of cases) {
      const answer = await rerank(body);
      expect(answer.status, param).toBe(400);
      expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', param });
    }
  });

  it('answers 404 for a model only channels without a rerank endpoint serve, and never asks them', async () => {
    const before = upstream.requests.length;
    const answer = await rerank({ model: 'chat-only-model', query: 'q', documents: ['a'] });
    expect(answer.status).toBe(404);
    expect(answer.body.error.message).toContain('chat-only-model');
    expect(upstream.requests.length).toBe(before);
  });

  it('fails over from a failing channel to the next', async () => {
    const answer = await rerank({ model: 'rerank-failover', query: 'q', documents: ['q', 'x'] });
    expect(answer.status).toBe(200);
    const [row] = await logsFor('rerank-failover');
    expect(row).toMatchObject({ family: 'rerank', httpStatus: 200, triedChannels: ['down', 'sim'] });
  });
});
