/**
 * OpenAI batches served through an upstream's own Batch API (a loopback
 * fake, openai-batch-fake.ts), with the official `openai` client, on SQLite
 * and PostgreSQL: the lines whose model routes first to an openai-chat
 * channel with `batchApi` go up as one upstream batch per (channel, model),
 * their answers mapped back by custom_id, each logged at half price; lines
 * of a simulator model run on the gateway in the same batch; an upstream
 * batch that expires leaves its lines to the gateway; a cancel cancels the
 * upstream batch; a refused create hands the lines back. What a delegation
 * uploaded and read upstream is deleted once it ended.
 */
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPlace, ENGINES, type Place } from '../support/places.js';
import type { TestGateway } from '../support/gateway.js';
import { BATCH_FAKE_KEY, type BatchFake, startBatchFake } from './openai-batch-fake.js';

const KEY = 'sk-batches-upstream-0001';
const BROKE = 'sk-batches-upstream-broke';
const BUDGETED = 'sk-batches-upstream-budget';
const FINAL = new Set(['completed', 'failed', 'expired', 'cancelled']);

const jsonl = (lines: unknown[]) => Buffer.from(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
const chatLine = (customId: string, model: string, text: string) => ({
  custom_id: customId,
  method: 'POST',
  url: '/v1/chat/completions',
  body: { model, messages: [{ role: 'user', content: text }] },
});

async function finished(client: OpenAI, id: string): Promise<OpenAI.Batches.Batch> {
  for (;;) {
    const batch = await client.batches.retrieve(id);
    if (FINAL.has(batch.status)) return batch;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function contentLines(client: OpenAI, fileId: string | null | undefined): Promise<Record<string, any>[]> {
  if (!fileId) return [];
  const text = await (await client.files.content(fileId)).text();
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

async function submit(client: OpenAI, lines: unknown[], endpoint: '/v1/chat/completions' | '/v1/embeddings' | '/v1/responses' = '/v1/chat/completions') {
  const file = await client.files.create({ file: await toFile(jsonl(lines), 'input.jsonl'), purpose: 'batch' });
  return client.batches.create({ input_file_id: file.id, endpoint, completion_window: '24h' });
}

describe.each(ENGINES)('batches through the upstream batch API on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;
  let client: OpenAI;
  let fake: BatchFake;

  beforeAll(async () => {
    fake = await startBatchFake();
    place = await createPlace(engine);
    gw = await place.start({
      config: {
        channels: [
          { name: 'openai', type: 'openai-chat', baseUrl: `${fake.origin}/v1`, apiKey: BATCH_FAKE_KEY, models: ['gpt-b-*'], settings: { batchApi: true } },
          { name: 'openai-responses', type: 'openai-responses', baseUrl: `${fake.origin}/v1`, apiKey: BATCH_FAKE_KEY, models: ['resp-b-*'], settings: { batchApi: true } },
          { name: 'sim', type: 'simulator', models: ['sim-*'], settings: { latencyMs: 5 } },
        ],
        keys: [
          { name: 'owner', key: KEY },
          { name: 'broke', key: BROKE, quota: 0 },
          { name: 'budgeted', key: BUDGETED },
        ],
        prices: { 'gpt-b-*': { input: 1, output: 2 }, 'resp-b-*': { input: 1, output: 2 }, 'sim-*': { input: 1, output: 2 } },
      },
      env: { SWITCHYARD_BATCH_UPSTREAM_POLL_MS: '40' },
    });
    client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: KEY, maxRetries: 0 });
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
    await fake?.close();
  });
  beforeEach(() => {
    fake.expire = false;
    fake.createStatus = undefined;
  });

  it('sends the lines of batch-API channels upstream, one batch per model, and runs the others locally', async () => {
    const before = fake.batches.length;
    const lines = [
      ...Array.from({ length: 6 }, (_, i) => chatLine(`one-${i}`, 'gpt-b-one', `q ${i}`)),
      ...Array.from({ length: 4 }, (_, i) => chatLine(`two-${i}`, 'gpt-b-two', `q ${i}`)),
      chatLine('refused', 'gpt-b-one', 'please FAIL'),
      ...Array.from({ length: 3 }, (_, i) => chatLine(`local-${i}`, 'sim-local', `q ${i}`)),
    ];
    const created = await submit(client, lines);
    const batch = await finished(client, created.id);
    expect(batch.status).toBe('completed');
    expect(batch.request_counts).toEqual({ total: 14, completed: 13, failed: 1 });

    const made = fake.batches.slice(before);
    expect(made.map((entry) => [entry.models, entry.lines]).sort()).toEqual([
      [['gpt-b-one'], 7],
      [['gpt-b-two'], 4],
    ]);
    expect(made.every((entry) => entry.metadata?.switchyard_delegation?.startsWith('bdel_'))).toBe(true);

    const output = await contentLines(client, batch.output_file_id);
    const byId = new Map(output.map((line) => [line.custom_id, line]));
    for (const line of lines.slice(0, 10)) expect(byId.get(line.custom_id)?.response.body.choices[0].message.content).toMatch(/^batch answer to \d+$/);
    // custom_id upstream is our line index: the answer names the index of the line it belongs to.
    expect(byId.get('two-0')?.response.body.choices[0].message.content).toBe('batch answer to 6');
    for (const id of ['local-0', 'local-1', 'local-2']) expect(byId.get(id)?.response.body.choices[0].message.content).not.toMatch(/^batch answer/);
    const errors = await contentLines(client, batch.error_file_id);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ custom_id: 'refused', response: { status_code: 400 }, error: { code: 'line_refused' } });

    let rows: { model: string; cost: number; channelId: string | null; httpStatus: number }[] = [];
    while (rows.length < 11) {
      rows = ((await gw.admin('GET', '/logs?limit=500')).body.data as typeof rows).filter((row) => row.model.startsWith('gpt-b-'));
      if (rows.length < 11) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const answered = rows.filter((row) => row.httpStatus === 200);
    expect(answered).toHaveLength(10);
    // 10 input tokens at $1/M and 5 output at $2/M, at half price.
    for (const row of answered) expect(row.cost).toBeCloseTo(((10 * 1 + 5 * 2) / 1e6) * 0.5, 12);
    expect(rows.find((row) => row.httpStatus === 400)?.cost).toBe(0);

    // Once each delegation ended, what it left upstream is deleted: the JSONL it uploaded and the result files it read.
    const leftUpstream = () => made.flatMap((entry) => [entry.input_file_id, entry.output_file_id, entry.error_file_id]).filter((file): file is string => file !== null && fake.files.has(file));
    const uploaded = made.map((entry) => entry.input_file_id);
    for (const until = Date.now() + 10_000; leftUpstream().length > 0 && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(leftUpstream()).toEqual([]);
    expect(fake.deleted).toEqual(expect.arrayContaining(uploaded));
    expect(made.filter((entry) => entry.error_file_id !== null)).toHaveLength(1);
  }, 60_000);

  it('sends embeddings lines upstream too', async () => {
    const before = fake.batches.length;
    const lines = Array.from({ length: 3 }, (_, i) => ({ custom_id: `e-${i}`, method: 'POST', url: '/v1/embeddings', body: { model: 'gpt-b-embed', input: `text ${i}` } }));
    const batch = await finished(client, (await submit(client, lines, '/v1/embeddings')).id);
    expect(batch.request_counts).toEqual({ total: 3, completed: 3, failed: 0 });
    expect(fake.batches.slice(before).map((entry) => [entry.endpoint, entry.models, entry.lines])).toEqual([['/v1/embeddings', ['gpt-b-embed'], 3]]);
    const output = await contentLines(client, batch.output_file_id);
    expect(output.every((line) => line.response.body.object === 'list' && line.response.body.data[0].embedding.length === 3)).toBe(true);
  }, 60_000);

  it("sends responses lines to an openai-responses channel's batch API", async () => {
    const before = fake.batches.length;
    const lines = Array.from({ length: 2 }, (_, i) => ({ custom_id: `r-${i}`, method: 'POST', url: '/v1/responses', body: { model: 'resp-b-one', input: `text ${i}` } }));
    const batch = await finished(client, (await submit(client, lines, '/v1/responses')).id);
    expect(batch.request_counts).toEqual({ total: 2, completed: 2, failed: 0 });
    expect(fake.batches.slice(before).map((entry) => [entry.endpoint, entry.models, entry.lines])).toEqual([['/v1/responses', ['resp-b-one'], 2]]);
    const output = await contentLines(client, batch.output_file_id);
    expect(output.map((line) => line.response.body.output[0].content[0].text).sort()).toEqual(['batch response to 0', 'batch response to 1']);
    expect(batch.usage).toMatchObject({ input_tokens: 20, output_tokens: 10 });
  }, 60_000);

  it('delegates nothing for a key over its quota: its lines get the refusal a request gets', async () => {
    const before = fake.batches.length;
    const broke = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: BROKE, maxRetries: 0 });
    const batch = await finished(broke, (await submit(broke, [chatLine('q-0', 'gpt-b-one', 'a')])).id);
    expect(fake.batches.length).toBe(before);
    expect(batch.request_counts).toEqual({ total: 1, completed: 0, failed: 1 });
    const errors = await contentLines(broke, batch.error_file_id);
    expect(errors[0]).toMatchObject({ custom_id: 'q-0', response: { status_code: 403 } });
  }, 60_000);

  it("charges the key's budget with the lines an upstream batch answered", async () => {
    const keyId = (await gw.admin('GET', '/keys')).body.data.find((key: { name: string }) => key.name === 'budgeted').id;
    const budget = (await gw.admin('POST', '/budgets', { scopeKind: 'key', scopeId: keyId, name: 'cap', amountUsd: 1, period: 'daily', timeZone: 'UTC' })).body;
    const budgeted = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: BUDGETED, maxRetries: 0 });
    const before = fake.batches.length;
    const batch = await finished(budgeted, (await submit(budgeted, [chatLine('b-0', 'gpt-b-one', 'a'), chatLine('b-1', 'gpt-b-one', 'b')])).id);
    expect(batch.request_counts).toEqual({ total: 2, completed: 2, failed: 0 });
    expect(fake.batches.length).toBe(before + 1);
    // The last line's charge may settle just after the batch is final.
    let charged = (await gw.admin('GET', `/budgets/${budget.id}`)).body;
    for (let tries = 0; charged.spent.tokens < 30 && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      charged = (await gw.admin('GET', `/budgets/${budget.id}`)).body;
    }
    expect(charged.spent.usd).toBeCloseTo(2 * ((10 * 1 + 5 * 2) / 1e6) * 0.5, 12);
    expect(charged.spent.tokens).toBe(30);
  }, 60_000);

  it('runs the lines of an upstream batch that expired on the gateway', async () => {
    fake.expire = true;
    const before = fake.batches.length;
    const created = await submit(client, [chatLine('late-0', 'gpt-b-one', 'a'), chatLine('late-1', 'gpt-b-one', 'b')]);
    const batch = await finished(client, created.id);
    expect(fake.batches.slice(before).map((entry) => entry.status)).toEqual(['expired']);
    // The gateway ran them itself on the channel, interactively.
    expect(batch.status).toBe('completed');
    expect(batch.request_counts).toEqual({ total: 2, completed: 2, failed: 0 });
    const output = await contentLines(client, batch.output_file_id);
    expect(output.map((line) => [line.custom_id, line.response.body.choices[0].message.content]).sort()).toEqual([
      ['late-0', 'interactive answer'],
      ['late-1', 'interactive answer'],
    ]);
  }, 60_000);

  it('runs a line the upstream batch answered with a passing failure (503) on the gateway, and keeps a refusal (400)', async () => {
    const created = await submit(client, [chatLine('busy-0', 'gpt-b-one', 'upstream BUSY'), chatLine('refused-0', 'gpt-b-one', 'please FAIL'), chatLine('ok-0', 'gpt-b-one', 'a')]);
    const batch = await finished(client, created.id);
    expect(batch.request_counts).toEqual({ total: 3, completed: 2, failed: 1 });
    const output = new Map((await contentLines(client, batch.output_file_id)).map((line) => [line.custom_id, line.response.body.choices[0].message.content]));
    expect(output.get('busy-0')).toBe('interactive answer');
    expect(output.get('ok-0')).toMatch(/^batch answer to \d+$/);
    const errors = await contentLines(client, batch.error_file_id);
    expect(errors.map((line) => [line.custom_id, line.response.status_code])).toEqual([['refused-0', 400]]);
  }, 60_000);

  it('hands the lines back when the upstream refuses the create', async () => {
    fake.createStatus = 400;
    const before = fake.batches.length;
    const requests = fake.upstream.requests.length;
    const created = await submit(client, [chatLine('back-0', 'gpt-b-two', 'a')]);
    const batch = await finished(client, created.id);
    expect(fake.batches.length).toBe(before);
    // Tried once upstream (uploaded, refused), then run on the gateway.
    const tried = fake.upstream.requests.slice(requests).map((request) => `${request.method} ${request.url.split('?')[0]}`);
    expect(tried.filter((call) => call === 'POST /v1/batches')).toHaveLength(1);
    expect(tried.filter((call) => call === 'POST /v1/chat/completions')).toHaveLength(1);
    // The file it uploaded for the refused batch is deleted, not left on the account.
    const uploads = fake.upstream.requests.slice(requests).filter((request) => request.method === 'POST' && request.url === '/v1/files');
    expect(uploads).toHaveLength(1);
    for (const until = Date.now() + 10_000; !tried.includes('DELETE /v1/files') && Date.now() < until; ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      tried.splice(0, tried.length, ...fake.upstream.requests.slice(requests).map((request) => `${request.method} ${request.url.replace(/\/file-[0-9a-f]+$/, '')}`));
    }
    expect(tried.filter((call) => call === 'DELETE /v1/files')).toHaveLength(1);
    expect(batch.request_counts).toEqual({ total: 1, completed: 1, failed: 0 });
    const output = await contentLines(client, batch.output_file_id);
    expect(output[0].response.body.choices[0].message.content).toBe('interactive answer');
  }, 60_000);

  it('cancels the upstream batch when the batch is cancelled', async () => {
    fake.pollsToFinish = 1_000;
    try {
      const before = fake.batches.length;
      const created = await submit(client, [chatLine('c-0', 'gpt-b-one', 'a'), chatLine('c-1', 'gpt-b-one', 'b')]);
      while (fake.batches.length === before) await new Promise((resolve) => setTimeout(resolve, 20));
      await client.batches.cancel(created.id);
      const batch = await finished(client, created.id);
      expect(batch.status).toBe('cancelled');
      expect(fake.batches.slice(before).map((entry) => entry.status)).toEqual(['cancelled']);
      const errors = await contentLines(client, batch.error_file_id);
      expect(errors.map((line) => [line.custom_id, line.error.code]).sort()).toEqual([
        ['c-0', 'batch_cancelled'],
        ['c-1', 'batch_cancelled'],
      ]);
    } finally {
      fake.pollsToFinish = 2;
    }
  }, 60_000);
});
