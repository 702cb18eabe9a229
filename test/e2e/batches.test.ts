/**
 * Files and batches with the official `openai` client, against the
 * simulator, on SQLite and on PostgreSQL: a batch file uploaded, the batch
 * run by the gateway itself until completed, every custom_id answered once
 * in the output file (a line the family refuses in the error file), each
 * line logged and billed; lists, cancel, a malformed file failing the batch
 * line by line, another key's file and batch not found, the size limit.
 */
import OpenAI, { toFile } from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../support/places.js';
import type { TestGateway } from '../support/gateway.js';
import { contentLines, finished, jsonl, useBatchGateway } from './batch-support.js';

const KEY = 'sk-batches-owner-0001';
const OTHER = 'sk-batches-other-0001';

function chatLine(customId: string, text: string, extra: Record<string, unknown> = {}) {
  return { custom_id: customId, method: 'POST', url: '/v1/chat/completions', body: { model: 'sim-batch', messages: [{ role: 'user', content: text }], ...extra } };
}

describe.each(ENGINES)('files and batches on %s', (engine) => {
  const suite = useBatchGateway(engine, { keys: { owner: KEY, other: OTHER }, prices: { 'sim-*': { input: 1, output: 2 } }, env: { SWITCHYARD_FILE_MAX_BYTES: '200000' } });
  let gw: TestGateway;
  let client: OpenAI;
  let other: OpenAI;

  beforeAll(() => {
    gw = suite.gw;
    client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: KEY, maxRetries: 0 });
    other = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: OTHER, maxRetries: 0 });
  });

  it('runs a batch to completion: every custom_id answered once, each line logged and billed', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => chatLine(`req-${i}`, `question ${i}`));
    lines.push(chatLine('streamed', 'no', { stream: true }));
    const file = await client.files.create({ file: await toFile(jsonl(lines), 'input.jsonl'), purpose: 'batch' });
    expect(file).toMatchObject({ object: 'file', purpose: 'batch', filename: 'input.jsonl', status: 'processed' });
    expect((await client.files.retrieve(file.id)).bytes).toBe(jsonl(lines).length);

    const created = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { run: 'one' } });
    expect(created).toMatchObject({ object: 'batch', status: 'in_progress', endpoint: '/v1/chat/completions', request_counts: { total: 41 }, metadata: { run: 'one' } });
    const batch = await finished(client, created.id);
    expect(batch.status).toBe('completed');
    expect(batch.request_counts).toEqual({ total: 41, completed: 40, failed: 1 });
    expect(batch.completed_at).toBeGreaterThan(0);
    expect(batch.usage?.input_tokens).toBeGreaterThan(0);

    const output = await contentLines(client, batch.output_file_id!);
    expect(output.map((line) => line.custom_id).sort()).toEqual(
      lines
        .slice(0, 40)
        .map((line) => line.custom_id)
        .sort(),
    );
    for (const line of output) {
      expect(line.error).toBeNull();
      expect(line.response.status_code).toBe(200);
      expect(line.response.body.object).toBe('chat.completion');
      expect(line.response.request_id).toMatch(/^req_/);
      expect(line.id).toMatch(/^batch_req_/);
    }
    const errors = await contentLines(client, batch.error_file_id!);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ custom_id: 'streamed', response: { status_code: 400 }, error: { message: expect.stringContaining('stream') } });
    expect((await client.files.retrieve(batch.output_file_id!)).purpose).toBe('batch_output');

    // One request-log row per line (written in batches: waited for), charged.
    let rows: { model: string; cost: number }[] = [];
    while (rows.length < 40) {
      rows = ((await gw.admin('GET', '/logs?limit=500')).body.data as { model: string; cost: number }[]).filter((row) => row.model === 'sim-batch');
      if (rows.length < 40) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The streamed line was refused before routing, as the route refuses a request it cannot parse: no row.
    expect(rows).toHaveLength(40);
    expect(rows.every((row) => row.cost > 0)).toBe(true);

    const listed = await client.batches.list();
    expect(listed.data.map((entry) => entry.id)).toContain(batch.id);
    const files = await client.files.list({ purpose: 'batch' });
    expect(files.data.map((entry) => entry.id)).toContain(file.id);
  }, 120_000);

  it('fails a malformed file line by line, with no 5xx', async () => {
    const text = [
      JSON.stringify(chatLine('a', 'fine')),
      'not json',
      JSON.stringify({ ...chatLine('b', 'x'), url: '/v1/embeddings' }),
      JSON.stringify(chatLine('a', 'again')),
      JSON.stringify({ custom_id: 'c', method: 'GET', url: '/v1/chat/completions', body: {} }),
    ].join('\n');
    const file = await client.files.create({ file: await toFile(Buffer.from(text), 'bad.jsonl'), purpose: 'batch' });
    const batch = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    expect(batch.status).toBe('failed');
    expect(batch.errors?.data?.map((error) => [error.line, error.code])).toEqual([
      [2, 'invalid_json_line'],
      [3, 'invalid_url'],
      [4, 'duplicate_custom_id'],
      [5, 'invalid_method'],
    ]);
    await expect(client.batches.create({ input_file_id: file.id, endpoint: '/v1/responses/nope' as '/v1/chat/completions', completion_window: '24h' })).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    const notBatch = await client.files.create({ file: await toFile(Buffer.from('x'), 'notes.txt'), purpose: 'user_data' });
    await expect(client.batches.create({ input_file_id: notBatch.id, endpoint: '/v1/chat/completions', completion_window: '24h' })).rejects.toBeInstanceOf(OpenAI.BadRequestError);
  });

  it("keeps each key's files and batches to itself, and deletes files", async () => {
    const file = await client.files.create({ file: await toFile(jsonl([chatLine('only', 'one')]), 'mine.jsonl'), purpose: 'batch' });
    await expect(other.files.retrieve(file.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(other.files.content(file.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(other.files.delete(file.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(other.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' })).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    expect((await other.files.list()).data.map((entry) => entry.id)).not.toContain(file.id);
    const batch = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    await expect(other.batches.retrieve(batch.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    expect(await client.files.delete(file.id)).toMatchObject({ id: file.id, deleted: true });
    await expect(client.files.retrieve(file.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('refuses a file over the size limit with a 413 naming it, and odd forms with a 400', async () => {
    const error = await client.files.create({ file: await toFile(Buffer.alloc(300_000, 'a'), 'big.jsonl'), purpose: 'batch' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(413);
    expect((error as Error).message).toContain('SWITCHYARD_FILE_MAX_BYTES');
    await expect(client.files.create({ file: await toFile(Buffer.from('x'), 'x.jsonl'), purpose: 'nope' as 'batch' })).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    await expect(client.files.create({ file: await toFile(Buffer.from('x'), 'x.jsonl'), purpose: 'batch', expires_after: { anchor: 'created_at', seconds: 10 } })).rejects.toBeInstanceOf(
      OpenAI.BadRequestError,
    );
    const expiring = await client.files.create({ file: await toFile(Buffer.from('x'), 'x.jsonl'), purpose: 'batch', expires_after: { anchor: 'created_at', seconds: 3600 } });
    expect(expiring.expires_at).toBe(expiring.created_at + 3600);
  });

  it('cancels a batch: lines never started are not run', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => chatLine(`c-${i}`, `slow ${i}`));
    const file = await client.files.create({ file: await toFile(jsonl(lines), 'cancel.jsonl'), purpose: 'batch' });
    const created = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const cancelling = await client.batches.cancel(created.id);
    expect(['cancelling', 'cancelled']).toContain(cancelling.status);
    const batch = await finished(client, created.id);
    expect(batch.status).toBe('cancelled');
    expect(batch.cancelled_at).toBeGreaterThan(0);
    const errors = await contentLines(client, batch.error_file_id!);
    const answered = batch.output_file_id ? await contentLines(client, batch.output_file_id) : [];
    expect(errors.length + answered.length).toBe(300);
    expect(errors.filter((line) => line.error?.code === 'batch_cancelled').length).toBeGreaterThan(200);
    await expect(client.batches.cancel(created.id)).rejects.toBeInstanceOf(OpenAI.ConflictError);
  });

  it('expires a batch past its completion window: lines not run end batch_expired', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => chatLine(`e-${i}`, `late ${i}`));
    const file = await client.files.create({ file: await toFile(jsonl(lines), 'expire.jsonl'), purpose: 'batch' });
    const created = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    // The window is 24 hours: move its end into the past.
    await gw.gateway.ctx.store.db
      .updateTable('batches')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', created.id)
      .execute();
    const batch = await finished(client, created.id);
    expect(batch.status).toBe('expired');
    expect(batch.expired_at).toBeGreaterThan(0);
    const errors = await contentLines(client, batch.error_file_id!);
    const answered = batch.output_file_id ? await contentLines(client, batch.output_file_id) : [];
    expect(errors.length + answered.length).toBe(300);
    const expired = errors.filter((line) => line.error?.code === 'batch_expired');
    expect(expired.length).toBeGreaterThan(200);
    expect(expired.every((line) => line.response === null)).toBe(true);
  });

  it('runs batches of embeddings, legacy completions and moderations', async () => {
    const cases = [
      { endpoint: '/v1/embeddings' as const, body: { model: 'sim-embed', input: 'the cat' }, object: 'list' },
      { endpoint: '/v1/completions' as const, body: { model: 'sim-batch', prompt: 'once upon' }, object: 'text_completion' },
      { endpoint: '/v1/moderations' as const, body: { model: 'sim-moderation', input: 'a calm sentence' }, object: undefined },
    ];
    for (const { endpoint, body, object } of cases) {
      const lines = Array.from({ length: 5 }, (_, i) => ({ custom_id: `${endpoint}-${i}`, method: 'POST', url: endpoint, body }));
      const file = await client.files.create({ file: await toFile(jsonl(lines), 'other.jsonl'), purpose: 'batch' });
      const created = await client.batches.create({ input_file_id: file.id, endpoint, completion_window: '24h' });
      const batch = await finished(client, created.id);
      expect(batch.request_counts, endpoint).toEqual({ total: 5, completed: 5, failed: 0 });
      const output = await contentLines(client, batch.output_file_id!);
      expect(output.map((line) => line.custom_id).sort()).toEqual(lines.map((line) => line.custom_id).sort());
      if (object) for (const line of output) expect(line.response.body.object).toBe(object);
      else for (const line of output) expect(line.response.body.results).toHaveLength(1);
    }
  });
});
