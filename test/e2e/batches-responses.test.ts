/**
 * Batches of `/v1/responses` with the official `openai` client, against the
 * simulator, on SQLite and PostgreSQL: every line answered with a Responses
 * object through the route's own path (stored unless `store: false`,
 * retrievable afterwards, `previous_response_id` continuing a stored
 * response), `stream` and `background` lines refused in the error file, the
 * batch's usage summed from the Responses usage; `output_expires_after`
 * giving the result files their expiry.
 */
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../support/places.js';
import { contentLines, createBatchOf, finished, useBatchGateway } from './batch-support.js';

const KEY = 'sk-batches-resp-owner-01';
const OTHER = 'sk-batches-resp-other-01';

function responsesLine(customId: string, body: Record<string, unknown>) {
  return { custom_id: customId, method: 'POST', url: '/v1/responses', body: { model: 'sim-batch', ...body } };
}

describe.each(ENGINES)('batches of /v1/responses on %s', (engine) => {
  const suite = useBatchGateway(engine, { keys: { owner: KEY, other: OTHER }, prices: { 'sim-*': { input: 1, output: 2 } } });
  let client: OpenAI;

  beforeAll(() => {
    client = new OpenAI({ baseURL: `${suite.gw.url}/v1`, apiKey: KEY, maxRetries: 0 });
  });

  it('answers each line with a Responses object, stored as the route stores it; stream and background lines are refused', async () => {
    const earlier = await client.responses.create({ model: 'sim-batch', input: 'My name is Ada' });
    const lines = [
      ...Array.from({ length: 10 }, (_, i) => responsesLine(`r-${i}`, { input: `question ${i}` })),
      responsesLine('unstored', { input: 'forget me', store: false }),
      responsesLine('continued', { input: 'What did I say?', previous_response_id: earlier.id }),
      responsesLine('unknown-previous', { input: 'x', previous_response_id: 'resp_unknown0000' }),
      responsesLine('streamed', { input: 'no', stream: true }),
      responsesLine('background', { input: 'no', background: true }),
    ];
    const created = await createBatchOf(client, '/v1/responses', lines);
    expect(created).toMatchObject({ object: 'batch', status: 'in_progress', endpoint: '/v1/responses', request_counts: { total: 15 } });
    const batch = await finished(client, created.id);
    expect(batch.status).toBe('completed');
    expect(batch.request_counts).toEqual({ total: 15, completed: 12, failed: 3 });

    const output = new Map((await contentLines(client, batch.output_file_id!)).map((line) => [line.custom_id as string, line]));
    expect([...output.keys()].sort()).toEqual([...lines.slice(0, 12).map((line) => line.custom_id)].sort());
    let input = 0;
    let outputTokens = 0;
    for (const line of output.values()) {
      expect(line.response.status_code).toBe(200);
      expect(line.response.body).toMatchObject({ object: 'response', status: 'completed', model: 'sim-batch' });
      expect(line.response.body.id).toMatch(/^resp_/);
      input += line.response.body.usage.input_tokens;
      outputTokens += line.response.body.usage.output_tokens;
    }
    expect(batch.usage).toMatchObject({ input_tokens: input, output_tokens: outputTokens, total_tokens: input + outputTokens });
    expect(input).toBeGreaterThan(0);

    // Stored as the route stores: retrievable, and continuing the earlier turn.
    const stored = output.get('r-0')!.response.body;
    expect((await client.responses.retrieve(stored.id)).id).toBe(stored.id);
    await expect(client.responses.retrieve(output.get('unstored')!.response.body.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const continued = output.get('continued')!.response.body;
    expect(continued.previous_response_id).toBe(earlier.id);
    const alone = output.get('r-0')!.response.body;
    expect(continued.usage.input_tokens).toBeGreaterThan(alone.usage.input_tokens + earlier.usage!.output_tokens);
    const followUp = await client.responses.create({ model: 'sim-batch', input: 'and then?', previous_response_id: stored.id });
    expect(followUp.previous_response_id).toBe(stored.id);

    const errors = new Map((await contentLines(client, batch.error_file_id!)).map((line) => [line.custom_id as string, line]));
    expect([...errors.keys()].sort()).toEqual(['background', 'streamed', 'unknown-previous']);
    expect(errors.get('streamed')).toMatchObject({ response: { status_code: 400 }, error: { message: expect.stringContaining('stream') } });
    expect(errors.get('background')).toMatchObject({ response: { status_code: 400 }, error: { message: expect.stringContaining('background') } });
    expect(errors.get('unknown-previous')).toMatchObject({ response: { status_code: 404 }, error: { code: 'previous_response_not_found' } });
  }, 120_000);

  it('gives the output and error files the expiry output_expires_after asks, and refuses a bad one', async () => {
    const lines = [responsesLine('fine', { input: 'hello' }), responsesLine('streamed', { input: 'no', stream: true })];
    const created = await createBatchOf(client, '/v1/responses', lines, { output_expires_after: { anchor: 'created_at', seconds: 7200 } });
    const batch = await finished(client, created.id);
    for (const id of [batch.output_file_id!, batch.error_file_id!]) {
      const file = await client.files.retrieve(id);
      expect(file.expires_at).toBe(file.created_at + 7200);
    }
    const plain = await finished(client, (await createBatchOf(client, '/v1/responses', [responsesLine('kept', { input: 'hi' })])).id);
    expect((await client.files.retrieve(plain.output_file_id!)).expires_at ?? null).toBeNull();

    for (const output_expires_after of [
      { anchor: 'created_at', seconds: 60 },
      { anchor: 'last_active_at', seconds: 3600 },
      { anchor: 'created_at', seconds: 2_592_001 },
    ]) {
      const refused = await createBatchOf(client, '/v1/responses', lines, { output_expires_after } as Partial<OpenAI.Batches.BatchCreateParams>).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
      expect((refused as InstanceType<typeof OpenAI.BadRequestError>).param).toMatch(/^output_expires_after/);
    }
  });
});
