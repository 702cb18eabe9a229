/**
 * Anthropic's Message Batches with the official `@anthropic-ai/sdk`, against
 * the simulator, on SQLite and PostgreSQL: create, retrieve until ended,
 * list, results() iterated (every custom_id once: succeeded, errored),
 * cancel (requests never started come back canceled), delete (only ended
 * batches), another key's batch not found, errors in the Anthropic shape.
 */
import Anthropic from '@anthropic-ai/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../support/places.js';
import { ended, useBatchGateway } from './batch-support.js';

const KEY = 'sk-msgbatch-owner-0001';
const OTHER = 'sk-msgbatch-other-0001';

function request(customId: string, text: string, extra: Record<string, unknown> = {}) {
  return { custom_id: customId, params: { model: 'sim-claude', max_tokens: 64, messages: [{ role: 'user' as const, content: text }], ...extra } };
}

describe.each(ENGINES)('message batches on %s', (engine) => {
  const suite = useBatchGateway(engine, { keys: { owner: KEY, other: OTHER } });
  let client: Anthropic;
  let other: Anthropic;

  beforeAll(() => {
    client = new Anthropic({ baseURL: suite.gw.url, apiKey: KEY, maxRetries: 0 });
    other = new Anthropic({ baseURL: suite.gw.url, apiKey: OTHER, maxRetries: 0 });
  });

  it('runs a batch and iterates its results: each custom_id once', async () => {
    const requests = Array.from({ length: 30 }, (_, i) => request(`q-${i}`, `question ${i}`));
    requests.push(request('broken', 'x', { max_tokens: -1 }));
    const created = await client.messages.batches.create({ requests });
    expect(created).toMatchObject({ type: 'message_batch', processing_status: 'in_progress', results_url: null, archived_at: null });
    expect(created.id).toMatch(/^msgbatch_/);
    const batch = await ended(client, created.id);
    expect(batch.request_counts).toEqual({ processing: 0, succeeded: 30, errored: 1, canceled: 0, expired: 0 });
    expect(batch.ended_at).not.toBeNull();
    expect(batch.results_url).toContain(`/v1/messages/batches/${batch.id}/results`);

    const seen = new Map<string, string>();
    for await (const entry of await client.messages.batches.results(batch.id)) {
      expect(seen.has(entry.custom_id)).toBe(false);
      seen.set(entry.custom_id, entry.result.type);
      if (entry.result.type === 'succeeded') expect(entry.result.message.type).toBe('message');
      if (entry.result.type === 'errored') expect(entry.result.error.error.type).toBe('invalid_request_error');
    }
    expect(seen.size).toBe(31);
    expect(seen.get('broken')).toBe('errored');
    expect([...seen.values()].filter((type) => type === 'succeeded')).toHaveLength(30);

    const listed = [];
    for await (const entry of client.messages.batches.list({ limit: 10 })) listed.push(entry.id);
    expect(listed).toContain(batch.id);

    await expect(other.messages.batches.retrieve(batch.id)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    expect(await client.messages.batches.delete(batch.id)).toEqual({ id: batch.id, type: 'message_batch_deleted' });
    await expect(client.messages.batches.retrieve(batch.id)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('cancels: requests never started come back canceled; a running batch cannot be deleted', async () => {
    const requests = Array.from({ length: 300 }, (_, i) => request(`c-${i}`, `slow ${i}`));
    const created = await client.messages.batches.create({ requests });
    await expect(client.messages.batches.delete(created.id)).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    const cancelling = await client.messages.batches.cancel(created.id);
    expect(['canceling', 'ended']).toContain(cancelling.processing_status);
    expect(cancelling.cancel_initiated_at).not.toBeNull();
    const batch = await ended(client, created.id);
    expect(batch.request_counts.canceled).toBeGreaterThan(200);
    expect(batch.request_counts.canceled + batch.request_counts.succeeded).toBe(300);
    let canceled = 0;
    for await (const entry of await client.messages.batches.results(batch.id)) if (entry.result.type === 'canceled') canceled++;
    expect(canceled).toBe(batch.request_counts.canceled);
  });

  it('refuses malformed batches in the Anthropic error shape', async () => {
    await expect(client.messages.batches.create({ requests: [] })).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    const duplicate = await client.messages.batches.create({ requests: [request('same', 'a'), request('same', 'b')] }).catch((error: unknown) => error);
    expect(duplicate).toBeInstanceOf(Anthropic.BadRequestError);
    expect((duplicate as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    await expect(client.messages.batches.retrieve('msgbatch_unknown')).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });
});
