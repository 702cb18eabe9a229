/**
 * Stored responses and chaining on PostgreSQL, end to end with the official
 * client: a gateway whose database is a fresh schema of the test database.
 * Fails when PostgreSQL is unreachable unless SWITCHYARD_SKIP_PG=1.
 */
import { randomBytes } from 'node:crypto';
import OpenAI from 'openai';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresConnection } from '../../src/storage/postgres-connection.js';
import { postgresUrl, skipPostgres } from '../storage/engines.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const schema = `t_resp_${randomBytes(5).toString('hex')}`;
let gw: TestGateway | undefined;
let client: OpenAI;

beforeAll(async () => {
  if (skipPostgres) return;
  gw = await startGateway({
    settings: { databaseUrl: postgresUrl, databaseSchema: schema },
    config: { keys: [{ name: 'pg-client', key: 'sk-pg-responses' }] },
  });
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'sk-pg-responses', maxRetries: 0 });
}, 60_000);

afterAll(async () => {
  await gw?.close();
  if (skipPostgres) return;
  const admin = new pg.Client(postgresConnection(postgresUrl));
  await admin.connect();
  try {
    await admin.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await admin.end();
  }
});

describe.skipIf(skipPostgres)('stored responses on PostgreSQL', () => {
  it('chains three turns, streamed and plain, and lists, retrieves and deletes', async () => {
    const first = await client.responses.create({ model: 'sim-model', input: 'turn one' });
    const second = await client.responses.stream({ model: 'sim-model', input: 'turn two', previous_response_id: first.id }).finalResponse();
    const third = await client.responses.create({ model: 'sim-model', input: 'turn three', previous_response_id: second.id });
    expect(third.previous_response_id).toBe(second.id);
    expect(third.usage!.input_tokens).toBeGreaterThan(second.usage!.input_tokens);

    const items = await client.responses.inputItems.list(third.id);
    expect(items.data).toHaveLength(1);
    expect(JSON.stringify(items.data[0])).toContain('turn three');
    expect((await client.responses.retrieve(second.id)).output_text).toBe(second.output_text);

    await client.responses.delete(first.id);
    await expect(client.responses.retrieve(first.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    // The chain goes on without the deleted turn.
    const fourth = await client.responses.create({ model: 'sim-model', input: 'turn four', previous_response_id: third.id });
    expect(fourth.status).toBe('completed');
  });
});
