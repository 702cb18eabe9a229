/**
 * The money rules as properties, end to end through a running gateway on
 * SQLite and PostgreSQL: a fake provider answers with random usage (plain
 * and streamed, some streams cut, some requests failing, some failing over
 * to a second channel), at random client prices and random channel cost
 * tables. Every request is logged once with its charge, no charge is
 * negative (refunds aside), each charge and upstream cost is the pricing
 * rule applied to the logged usage, and the logged charges add up to the
 * usage report's spend and to each key's `used`.
 * Runs are drawn from a fixed seed (SWITCHYARD_PROPERTY_SEED overrides it),
 * named in every failure.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costOf } from '../../src/billing/cost.js';
import type { ModelPrice } from '../../src/config/price-schema.js';
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';

const SEED = Number(process.env.SWITCHYARD_PROPERTY_SEED ?? 424242);
const RUNS = 20;
const KEYS = ['sk-money-props-key-0', 'sk-money-props-key-1'];

type Outcome = 'ok' | 'cut' | 'fail' | 'failover';

interface Ask {
  key: 0 | 1;
  stream: boolean;
  /** Through the pass-through path (chat completions) or translated (messages). */
  dialect: 'chat' | 'messages';
  outcome: Outcome;
  usage: { prompt: number; completion: number; cached: number; reasoning: number };
}

interface Run {
  price: ModelPrice;
  /** Each channel's cost for this run's models, when its table has one. */
  costs: { a?: ModelPrice; b?: ModelPrice };
  asks: Ask[];
}

// Prices in thousandths of a dollar per million tokens, so that charges are of every size, zero included.
const usd = fc.oneof(
  fc.constant(undefined),
  fc.integer({ min: 0, max: 40_000 }).map((milli) => milli / 1000),
);
const modelPrice: fc.Arbitrary<ModelPrice> = fc
  .record({ input: usd, output: usd, cacheRead: usd, reasoning: usd })
  .map((price) => Object.fromEntries(Object.entries(price).filter(([, value]) => value !== undefined)) as ModelPrice);
const ask: fc.Arbitrary<Ask> = fc.record({
  key: fc.constantFrom(0 as const, 1 as const),
  stream: fc.boolean(),
  dialect: fc.constantFrom('chat' as const, 'messages' as const),
  outcome: fc.constantFrom<Outcome>('ok', 'ok', 'cut', 'fail', 'failover'),
  usage: fc
    .record({
      prompt: fc.integer({ min: 0, max: 50_000 }),
      completion: fc.integer({ min: 0, max: 5_000 }),
      cachedPercent: fc.integer({ min: 0, max: 100 }),
      reasoningPercent: fc.integer({ min: 0, max: 100 }),
    })
    .map(({ prompt, completion, cachedPercent, reasoningPercent }) => ({
      prompt,
      completion,
      cached: Math.floor((prompt * cachedPercent) / 100),
      reasoning: Math.floor((completion * reasoningPercent) / 100),
    })),
});
const run: fc.Arbitrary<Run> = fc.record({
  price: modelPrice,
  costs: fc.record({ a: modelPrice, b: modelPrice }, { requiredKeys: [] }),
  asks: fc.array(ask, { minLength: 1, maxLength: 4 }),
});

const RUN_SET = fc.sample(run, { seed: SEED, numRuns: RUNS });
const modelOf = (runIndex: number, askIndex: number) => `mp${runIndex}-q${askIndex}`;
const askOf = (model: string): Ask | undefined => {
  const match = /^mp(\d+)-q(\d+)$/.exec(model);
  return match ? RUN_SET[Number(match[1])]?.asks[Number(match[2])] : undefined;
};

const WORDS = ['money', ' is', ' counted', ' once', ' and', ' only', ' once', '.'];

function usageJson(usage: Ask['usage']) {
  return {
    prompt_tokens: usage.prompt,
    completion_tokens: usage.completion,
    total_tokens: usage.prompt + usage.completion,
    prompt_tokens_details: { cached_tokens: usage.cached },
    completion_tokens_details: { reasoning_tokens: usage.reasoning },
  };
}

/** The provider's answer for a model of the run set, by which channel (path) was asked. */
function answer(channel: 'a' | 'b', model: string, stream: boolean): FakeReply {
  const given = askOf(model);
  if (!given) return { status: 404, headers: { 'content-type': 'application/json' }, body: '{"error":{"message":"unknown model"}}' };
  const failsHere = given.outcome === 'fail' || (given.outcome === 'failover' && channel === 'a');
  if (failsHere) return { status: 503, headers: { 'content-type': 'application/json' }, body: '{"error":{"message":"overloaded"}}' };
  const base = { id: 'chatcmpl-1', created: 1, model };
  if (!stream) {
    const message = { role: 'assistant', content: WORDS.join('') };
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: 'stop' }], usage: usageJson(given.usage) }),
    };
  }
  const chunk = (body: object) => `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', ...body })}\n\n`;
  const chunks = [
    chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }),
    ...WORDS.map((word) => chunk({ choices: [{ index: 0, delta: { content: word }, finish_reason: null }] })),
    chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
    chunk({ choices: [], usage: usageJson(given.usage) }),
    'data: [DONE]\n\n',
  ];
  // A cut stream ends after a few words, before the usage: the gateway charges what was delivered.
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks, ...(given.outcome === 'cut' ? { cutAfterChunks: 4 } : {}) };
}

interface LoggedRow {
  requestId: string;
  keyId: string | null;
  model: string;
  upstreamModel: string | null;
  channelId: string | null;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  cost: number;
  upstreamCost: number | null;
}

const usageOfRow = (row: LoggedRow) => ({
  inputTokens: row.inputTokens,
  outputTokens: row.outputTokens,
  cacheReadTokens: row.cacheReadTokens,
  cacheWriteTokens: row.cacheWriteTokens,
  reasoningTokens: row.reasoningTokens,
});
const near = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

describe.each(ENGINES)(`money rules over random usage and prices on %s (seed ${SEED}, ${RUNS} runs)`, (engine) => {
  let place: Place;
  let gw: TestGateway;
  let upstream: FakeUpstream;

  beforeAll(async () => {
    upstream = await startFakeUpstream((request) => {
      const body = request.json<{ model: string; stream?: boolean }>();
      return answer(request.url.startsWith('/a/') ? 'a' : 'b', body.model, body.stream === true);
    });
    place = await createPlace(engine);
    const costsOf = (channel: 'a' | 'b') => Object.fromEntries(RUN_SET.flatMap((entry, index) => (entry.costs[channel] ? [[`mp${index}-*`, entry.costs[channel]]] : [])));
    gw = await place.start({
      config: {
        keys: KEYS.map((key, index) => ({ name: `money-${index}`, key })),
        prices: Object.fromEntries(RUN_SET.map((entry, index) => [`mp${index}-*`, entry.price])),
        channels: [
          { name: 'a', type: 'openai-chat', baseUrl: `${upstream.origin}/a/v1`, apiKey: 'sk-up-a', models: ['mp*'], priority: 10, settings: { costs: costsOf('a') } },
          { name: 'b', type: 'openai-chat', baseUrl: `${upstream.origin}/b/v1`, apiKey: 'sk-up-b', models: ['mp*'], priority: 0, settings: { costs: costsOf('b') } },
        ],
      },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
    await upstream?.close();
  });

  async function send(model: string, given: Ask): Promise<string> {
    const chat = given.dialect === 'chat';
    const response = await fetch(`${gw.url}${chat ? '/v1/chat/completions' : '/v1/messages'}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS[given.key]}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model, stream: given.stream, max_tokens: 100, messages: [{ role: 'user', content: 'count the money' }] }),
    });
    await response.text().catch(() => undefined);
    return response.headers.get('x-request-id')!;
  }

  it('charges every request once, never negatively, by the pricing rule, and the sums agree', async () => {
    const sent = new Map<string, { run: number; model: string }>();
    for (const [runIndex, entry] of RUN_SET.entries()) {
      // A run's requests go together, so settlements of several requests overlap.
      const ids = await Promise.all(entry.asks.map((given, askIndex) => send(modelOf(runIndex, askIndex), given)));
      ids.forEach((id, askIndex) => sent.set(id, { run: runIndex, model: modelOf(runIndex, askIndex) }));
    }
    const report = (await gw.admin('GET', '/usage')).body;
    const rows = (await gw.admin('GET', '/logs?limit=1000')).body.data as LoggedRow[];
    const keys = (await gw.admin('GET', '/keys')).body.data as Array<{ id: string; name: string; used: number }>;
    const channels = new Map(((await gw.admin('GET', '/channels')).body.data as Array<{ id: string; name: 'a' | 'b' }>).map((channel) => [channel.id, channel.name]));
    const why = (row: LoggedRow, rule: string) => `seed ${SEED} (${engine}): ${rule}: ${JSON.stringify(row)}`;

    expect(sent.size, `seed ${SEED}: one request id per request`).toBe(RUN_SET.reduce((sum, entry) => sum + entry.asks.length, 0));
    expect(rows.map((row) => row.requestId).sort(), `seed ${SEED} (${engine}): one log row per request, failover included`).toEqual([...sent.keys()].sort());
    for (const row of rows) {
      const { run: runIndex } = sent.get(row.requestId)!;
      const entry = RUN_SET[runIndex];
      if (!row.requestId.startsWith('refund:')) expect(row.cost >= 0, why(row, 'a charge is never negative')).toBe(true);
      expect(near(row.cost, costOf(entry.price, usageOfRow(row))), why(row, 'the charge is the client price of the logged usage')).toBe(true);
      const channel = row.channelId === null ? undefined : channels.get(row.channelId);
      const cost = channel ? entry.costs[channel] : undefined;
      if (cost === undefined) expect(row.upstreamCost, why(row, 'no cost table, no upstream cost')).toBeNull();
      else expect(near(row.upstreamCost!, costOf(cost, usageOfRow(row))), why(row, 'the upstream cost is the channel price of the logged usage')).toBe(true);
    }
    const logged = rows.reduce((sum, row) => sum + row.cost, 0);
    expect(near(report.totals.cost, logged), `seed ${SEED} (${engine}): the usage report's spend is the log's (${report.totals.cost} vs ${logged})`).toBe(true);
    const loggedUpstream = rows.reduce((sum, row) => sum + (row.upstreamCost ?? 0), 0);
    expect(near(report.totals.upstreamCost, loggedUpstream), `seed ${SEED} (${engine}): the usage report's upstream cost is the log's`).toBe(true);
    expect(report.totals.costedRequests, `seed ${SEED} (${engine}): costed requests`).toBe(rows.filter((row) => row.upstreamCost !== null).length);
    expect(report.totals.uncostedRequests, `seed ${SEED} (${engine}): served requests without a cost`).toBe(rows.filter((row) => row.channelId !== null && row.upstreamCost === null).length);
    for (const key of keys) {
      const charged = rows.filter((row) => row.keyId === key.id).reduce((sum, row) => sum + row.cost, 0);
      expect(near(key.used, charged), `seed ${SEED} (${engine}): key ${key.name} used ${key.used}, logged ${charged}`).toBe(true);
    }
  }, 60_000);
});
