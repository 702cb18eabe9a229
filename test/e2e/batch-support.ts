/**
 * What the batch end-to-end tests share: a gateway on SQLite or PostgreSQL
 * with the simulator channel and two keys (an owner's and another's),
 * started before a suite and closed after it; an input file in JSONL; a
 * batch uploaded and created; polling until a batch is final; a result
 * file's lines.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { toFile } from 'openai';
import { afterAll, beforeAll } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, type Engine, type Place } from '../support/places.js';

const FINAL = new Set(['completed', 'failed', 'expired', 'cancelled']);

export interface BatchSuite {
  /** Set once the suite's `beforeAll` ran. */
  readonly gw: TestGateway;
  readonly place: Place;
}

export interface BatchSuiteOptions {
  keys: { owner: string; other: string };
  prices?: Record<string, unknown>;
  env?: Record<string, string>;
}

/** Registers the suite's gateway: call it in a `describe`, before the hooks that build clients from `gw.url`. */
export function useBatchGateway(engine: Engine, options: BatchSuiteOptions): BatchSuite {
  const suite = {} as { gw: TestGateway; place: Place };
  beforeAll(async () => {
    suite.place = await createPlace(engine);
    suite.gw = await suite.place.start({
      config: {
        channels: [{ name: 'sim', type: 'simulator', models: ['sim-*'], settings: { latencyMs: 10 } }],
        keys: [
          { name: 'owner', key: options.keys.owner },
          { name: 'other', key: options.keys.other },
        ],
        ...(options.prices ? { prices: options.prices } : {}),
      },
      ...(options.env ? { env: options.env } : {}),
    });
  }, 60_000);
  afterAll(async () => {
    await suite.gw?.close();
    await suite.place?.destroy();
  });
  return suite;
}

export function jsonl(lines: unknown[]): Buffer {
  return Buffer.from(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
}

/** Reads `read` every 50 ms until `done` says the value is final. */
export async function untilFinal<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** An OpenAI batch once it is completed, failed, expired or cancelled. */
export function finished(client: OpenAI, id: string): Promise<OpenAI.Batches.Batch> {
  return untilFinal(
    () => client.batches.retrieve(id),
    (batch) => FINAL.has(batch.status),
  );
}

/** A Message Batch once it ended. */
export function ended(client: Anthropic, id: string): Promise<Anthropic.Messages.Batches.MessageBatch> {
  return untilFinal(
    () => client.messages.batches.retrieve(id),
    (batch) => batch.processing_status === 'ended',
  );
}

/** Uploads `lines` as a batch input file and creates an OpenAI batch of `endpoint` from it. */
export async function createBatchOf(
  client: OpenAI,
  endpoint: OpenAI.Batches.BatchCreateParams['endpoint'],
  lines: unknown[],
  extra: Partial<OpenAI.Batches.BatchCreateParams> = {},
): Promise<OpenAI.Batches.Batch> {
  const file = await client.files.create({ file: await toFile(jsonl(lines), 'input.jsonl'), purpose: 'batch' });
  return client.batches.create({ input_file_id: file.id, endpoint, completion_window: '24h', ...extra });
}

/** A result file's lines, parsed. */
export async function contentLines(client: OpenAI, fileId: string): Promise<Record<string, any>[]> {
  const text = await (await client.files.content(fileId)).text();
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}
