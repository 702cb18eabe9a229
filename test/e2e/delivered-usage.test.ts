/**
 * A stream that ends before its upstream's final usage is charged for what
 * the client received: the output counted by the tokenizer from the text the
 * client read off its SSE, the prompt as the upstream reported it early (else
 * estimated), and the log row says which parts were estimated. Every chat
 * family on its native (pass-through) channel, cut four ways: the upstream
 * resets the connection, the upstream goes silent past the idle timeout
 * (`limits.upstreamIdleMs`), the client leaves, shutdown ends the stream. The
 * three reported cuts (a Messages stream cut after 108 characters, a Messages
 * client leaving after three deltas, a Chat Completions stream cut before its
 * usage chunk after 60 characters) run on SQLite and PostgreSQL; the rest on
 * SQLite.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../src/core/tokens.js';
import { openStore } from '../../src/storage/open.js';
import { engines, freshSchemas, postgresUrl } from '../storage/engines.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import type { FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { channelsFor, closingError, cutFamilies, modelFor, PROMPT_TOKENS, readUntil, receivedText, startCutUpstream, type CutFamily, type CutKind } from '../support/cut-streams.js';

const KEY = 'sk-client-cut-streams-01';
const PRICE = { input: 1, output: 2 };
const freshSchema = freshSchemas('cut');

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startCutUpstream();
});
afterAll(() => upstream?.close());

const config = () => ({ channels: channelsFor(upstream), keys: [{ name: 'client', key: KEY }], prices: { '*': PRICE } });
/** Short, so the silent cases stay quick; undici checks it on a coarse clock (up to about a second late). */
const IDLE_MS = 300;

function send(gw: TestGateway, family: CutFamily, model: string, signal?: AbortSignal) {
  const request = family.request(model, KEY);
  return fetch(`${gw.url}${request.path}`, { method: 'POST', signal, headers: { 'content-type': 'application/json', ...request.headers }, body: JSON.stringify(request.body) });
}

async function logOf(gw: TestGateway, model: string): Promise<any> {
  for (let attempt = 0; attempt < 80; attempt++) {
    const rows = (await gw.admin('GET', `/logs?model=${encodeURIComponent(model)}`)).body.data;
    if (rows.length > 0) return rows[0];
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no log row for ${model}`);
}

/** The client's side of one cut: the text it received off the SSE. */
async function cutStream(gw: TestGateway, family: CutFamily, kind: Exclude<CutKind, 'shutdown' | 'silent'>, model: string): Promise<string> {
  const abort = new AbortController();
  const response = await send(gw, family, model, abort.signal);
  expect(response.status).toBe(200);
  if (kind === 'reset') {
    const read = await readUntil(response, () => false);
    return receivedText(family, read.text);
  }
  // Every delta the upstream sent reached the client; it leaves while the upstream is silent.
  const read = await readUntil(response, (text) => receivedText(family, text).includes('END'));
  abort.abort();
  return receivedText(family, read.text);
}

function expectCharged(row: any, family: CutFamily, received: string): void {
  expect(received).toBe(family.deltas.join(''));
  expect(row.outputTokens).toBe(countTokens(received));
  expect(row.estimatedParts).toEqual(family.promptReported ? ['output'] : ['input', 'output']);
  expect(row.estimated).toBe(true);
  if (family.promptReported) expect(row.inputTokens).toBe(PROMPT_TOKENS);
  expect(row.cost).toBeCloseTo((row.inputTokens * PRICE.input + row.outputTokens * PRICE.output) / 1_000_000, 12);
}

const reported: Array<[string, CutFamily, Exclude<CutKind, 'shutdown' | 'silent'>]> = [
  ['Messages stream reset after 108 characters', cutFamilies[0]!, 'reset'],
  ['Messages client leaving after the deltas', cutFamilies[0]!, 'abort'],
  ['Chat Completions stream reset before its usage chunk after 60 characters', cutFamilies[1]!, 'reset'],
];

for (const { engine, skip } of engines) {
  describe.skipIf(skip)(`the reported cuts, charged for what was delivered (${engine})`, () => {
    let gw: TestGateway;
    beforeAll(async () => {
      const settings = engine === 'postgres' ? { databaseUrl: postgresUrl, databaseSchema: freshSchema() } : {};
      gw = await startGateway({ settings, config: config() });
    });
    afterAll(() => gw?.close());

    it.each(reported)('%s', async (_name, family, kind) => {
      const model = modelFor(family, kind);
      const received = await cutStream(gw, family, kind, model);
      const row = await logOf(gw, model);
      expect(row).toMatchObject({ model, stream: true, httpStatus: 200 });
      expectCharged(row, family, received);
    });
  });
}

describe('every family, every cut (sqlite)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ config: config() });
  });
  afterAll(() => gw?.close());

  const cases = cutFamilies.flatMap((family) => (['reset', 'abort'] as const).map((kind) => [family.name, kind, family] as const));
  it.each(cases)('%s, %s', async (_name, kind, family) => {
    const model = modelFor(family, kind);
    const received = await cutStream(gw, family, kind, model);
    expectCharged(await logOf(gw, model), family, received);
  });

  it.each(cutFamilies.map((family) => [family.name, family] as const))('%s, shutdown ends the stream', async (_name, family) => {
    const sgw = await startGateway({ settings: { shutdownGraceMs: 20 }, config: config() });
    const model = modelFor(family, 'shutdown');
    try {
      const response = await send(sgw, family, model);
      const read = await readUntil(response, (text) => receivedText(family, text).includes('END'));
      const closing = sgw.gateway.close();
      const text = await read.rest();
      await closing;
      const store = await openStore({ dataDir: sgw.dataDir });
      try {
        const [row] = await store.logs.query({ model, limit: 1 });
        expect(row).toMatchObject({ errorKind: 'unavailable' });
        expectCharged(row, family, receivedText(family, text));
      } finally {
        await store.close();
      }
    } finally {
      await rm(sgw.dataDir, { recursive: true, force: true });
    }
  });
});

describe('every family, its upstream silent mid-stream past the idle timeout (sqlite)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ config: { ...config(), limits: { upstreamIdleMs: IDLE_MS } } });
  });
  afterAll(() => gw?.close());

  // Concurrent: each case waits out the idle timeout, late by up to undici's coarse clock.
  it.concurrent.each(cutFamilies.map((family) => [family.name, family] as const))('%s', async (_name, family) => {
    const model = modelFor(family, 'silent');
    const response = await send(gw, family, model);
    expect(response.status).toBe(200);
    const sse = await response.text();
    expect(closingError(family, sse)).toBe('upstream went silent while sending its answer');
    const row = await logOf(gw, model);
    expect(row).toMatchObject({ model, stream: true, httpStatus: 200, errorKind: 'timeout' });
    expectCharged(row, family, receivedText(family, sse));
  });
});
