/**
 * Session affinity through a running gateway: four channels of two upstream
 * keys each serve one model. A 30-turn session of every client dialect stays
 * on one channel and one key (pass-through and translated), different
 * sessions spread, a failing pinned channel or a rate-limited pinned key moves
 * the session (which then stays where it was served), two instances on one
 * PostgreSQL database and Redis keep a session in place, and
 * SWITCHYARD_SESSION_AFFINITY=off places every turn by weight alone.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { jsonReply } from '../upstreams/support/fixtures.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { skipPostgres } from '../storage/engines.js';
import { createPlace } from '../support/places.js';

const CLIENT_KEY = 'sk-client-affinity';
const CHANNELS = 4;

interface Hit {
  channel: number;
  key: string;
}

const hits: Hit[] = [];
const upstreams: FakeUpstream[] = [];
/** Per channel: what it answers instead of the usual reply (an outage, a rate-limited key). */
const trouble = new Map<number, (key: string) => FakeReply | undefined>();

const errorReply = (status: number): FakeReply => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ error: { message: `upstream says ${status}`, type: 'server_error' } }),
});

function config() {
  return {
    channels: upstreams.map((upstream, index) => ({
      name: `channel-${index}`,
      type: 'openai-chat',
      baseUrl: `${upstream.origin}/v1`,
      apiKey: [`sk-up-${index}-a`, `sk-up-${index}-b`],
      models: ['gpt-x'],
    })),
    keys: [{ name: 'client', key: CLIENT_KEY }],
  };
}

beforeAll(async () => {
  for (let index = 0; index < CHANNELS; index++) {
    upstreams.push(
      await startFakeUpstream((request) => {
        const key = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
        hits.push({ channel: index, key });
        return trouble.get(index)?.(key) ?? jsonReply('openai-chat', 'openai-text.json');
      }),
    );
  }
});
afterAll(async () => {
  for (const upstream of upstreams) await upstream.close();
});

/** One client dialect's session: turn `n` of the conversation named `session`, sent to a gateway. */
type Dialect = (url: string, session: string, turn: number, state: Record<string, string>) => Promise<Response>;

const post = (url: string, path: string, headers: Record<string, string>, body: unknown) =>
  fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

const history = (turn: number) => Array.from({ length: turn }, (_, i) => [`question ${i}`, `answer ${i}`]).flat();

const dialects: Record<string, Dialect> = {
  'Chat Completions, opencode header (pass-through)': (url, session, turn) =>
    post(
      url,
      '/v1/chat/completions',
      { authorization: `Bearer ${CLIENT_KEY}`, 'x-session-id': session },
      {
        model: 'gpt-x',
        messages: [{ role: 'system', content: 'be brief' }, ...history(turn).map((text, i) => ({ role: i % 2 ? 'assistant' : 'user', content: text })), { role: 'user', content: `question ${turn}` }],
      },
    ),
  'Messages, Claude Code header (translated)': (url, session, turn) =>
    post(
      url,
      '/v1/messages',
      { 'x-api-key': CLIENT_KEY, 'anthropic-version': '2023-06-01', 'x-claude-code-session-id': session },
      {
        model: 'gpt-x',
        max_tokens: 50,
        system: 'be brief',
        messages: [...history(turn).map((text, i) => ({ role: i % 2 ? 'assistant' : 'user', content: text })), { role: 'user', content: `question ${turn}` }],
      },
    ),
  'Generate, stable prefix (translated)': (url, session, turn) =>
    post(
      url,
      '/v1beta/models/gpt-x:generateContent',
      { 'x-goog-api-key': CLIENT_KEY },
      {
        systemInstruction: { parts: [{ text: `session ${session}` }] },
        contents: [...history(turn).map((text, i) => ({ role: i % 2 ? 'model' : 'user', parts: [{ text }] })), { role: 'user', parts: [{ text: `question ${turn}` }] }],
      },
    ),
  'Responses, a stored chain by previous_response_id (translated)': async (url, session, turn, state) => {
    const response = await post(
      url,
      '/v1/responses',
      { authorization: `Bearer ${CLIENT_KEY}` },
      {
        model: 'gpt-x',
        store: true,
        input: `question ${turn} of ${session}`,
        ...(state.previous ? { previous_response_id: state.previous } : {}),
      },
    );
    const body = (await response.clone().json()) as { id?: string };
    if (body.id) state.previous = body.id;
    return response;
  },
  'Responses, prompt_cache_key without a header (translated)': (url, session, turn) =>
    post(url, '/v1/responses', { authorization: `Bearer ${CLIENT_KEY}` }, { model: 'gpt-x', store: false, prompt_cache_key: session, input: `question ${turn}` }),
};

/** Sends one turn and returns the channel and key that answered it. */
async function turn(dialect: Dialect, url: string, session: string, index: number, state: Record<string, string>): Promise<Hit> {
  const response = await dialect(url, session, index, state);
  expect(response.status, await response.clone().text()).toBe(200);
  await response.arrayBuffer();
  return hits[hits.length - 1];
}

async function runSession(dialect: Dialect, url: string, turns: number, session = randomUUID()): Promise<Hit[]> {
  const state: Record<string, string> = {};
  const served: Hit[] = [];
  for (let index = 0; index < turns; index++) served.push(await turn(dialect, url, session, index, state));
  return served;
}

const places = (served: Hit[]) => new Set(served.map((hit) => `${hit.channel} ${hit.key}`));

describe('one gateway', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ config: config() });
  });
  afterEach(() => {
    trouble.clear();
    gw.gateway.ctx.health.reset();
  });
  afterAll(() => gw?.close());

  it.each(Object.entries(dialects))('a 30-turn session stays on one channel and key: %s', async (_name, dialect) => {
    const served = await runSession(dialect, gw.url, 30);
    expect(places(served).size).toBe(1);
  });

  it('different sessions spread over the channels and their keys', async () => {
    const first: Hit[] = [];
    for (let index = 0; index < 40; index++) first.push((await runSession(dialects['Chat Completions, opencode header (pass-through)'], gw.url, 1))[0]);
    expect(new Set(first.map((hit) => hit.channel)).size).toBeGreaterThan(1);
    expect(places(first).size).toBeGreaterThan(2);
  });

  it('a failing pinned channel moves the session, which then stays where it was served', async () => {
    const dialect = dialects['Messages, Claude Code header (translated)'];
    const session = randomUUID();
    const state = {};
    const pinned = await turn(dialect, gw.url, session, 0, state);
    trouble.set(pinned.channel, () => errorReply(503));
    const moved = await turn(dialect, gw.url, session, 1, state);
    expect(moved.channel).not.toBe(pinned.channel);
    trouble.clear();
    for (let index = 2; index < 10; index++) expect(await turn(dialect, gw.url, session, index, state)).toEqual(moved);
  });

  it('a rate-limited pinned key moves the session off that key', async () => {
    const dialect = dialects['Chat Completions, opencode header (pass-through)'];
    const session = randomUUID();
    const state = {};
    const pinned = await turn(dialect, gw.url, session, 0, state);
    trouble.set(pinned.channel, (key) => (key === pinned.key ? errorReply(429) : undefined));
    const moved = await turn(dialect, gw.url, session, 1, state);
    expect(moved).not.toEqual(pinned);
    for (let index = 2; index < 10; index++) expect(await turn(dialect, gw.url, session, index, state)).toEqual(moved);
    expect(hits.slice(-8).some((hit) => hit.key === pinned.key)).toBe(false);
  });
});

describe('turned off', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ config: config(), env: { SWITCHYARD_SESSION_AFFINITY: 'off' } });
  });
  afterAll(() => gw?.close());

  it('SWITCHYARD_SESSION_AFFINITY=off places every turn by weight alone', async () => {
    expect(gw.gateway.ctx.affinity).toBeUndefined();
    const served = await runSession(dialects['Chat Completions, opencode header (pass-through)'], gw.url, 30);
    expect(new Set(served.map((hit) => hit.channel)).size).toBeGreaterThan(1);
  });
});

describe('settings', () => {
  it('the config file turns it off and sizes it; SWITCHYARD_SESSION_AFFINITY wins over the file', async () => {
    const off = await startGateway({ config: { ...config(), sessionAffinity: { enabled: false } } });
    const on = await startGateway({ config: { ...config(), sessionAffinity: { enabled: false, idleSeconds: 60, maxSessions: 2 } }, env: { SWITCHYARD_SESSION_AFFINITY: 'on' } });
    try {
      expect(off.gateway.ctx.affinity).toBeUndefined();
      const affinity = on.gateway.ctx.affinity!;
      expect(on.gateway.ctx.settings).toMatchObject({ sessionAffinity: true, sessionAffinityIdleSeconds: 60, sessionAffinityMaxSessions: 2 });
      for (const session of ['a', 'b', 'c']) affinity.served(session, { channelId: 'x', key: '' });
      expect(affinity.size).toBe(2);
    } finally {
      await off.close();
      await on.close();
    }
  });
});

describe.skipIf(skipPostgres)('two instances on one PostgreSQL database and Redis', () => {
  const redisUrl = process.env.SWITCHYARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

  it('a session moving between instances keeps its channel and key', async () => {
    // One data directory: the instances share the secret key the channels' credentials are sealed with.
    const place = await createPlace('postgres');
    const schema = place.schema!;
    const first = await place.start({ config: config(), settings: { redisUrl } });
    const second = await place.start({ config: config(), settings: { redisUrl } });
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    try {
      const dialect = dialects['Messages, Claude Code header (translated)'];
      const session = randomUUID();
      const state = {};
      const served = [await turn(dialect, first.url, session, 0, state)];
      // The first instance writes its pin in the background: the test waits until Redis has it.
      for (let tries = 0; tries < 100 && (await redis.keys(`switchyard:sessions:${schema}:*`)).length === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
      for (let index = 1; index < 10; index++) served.push(await turn(dialect, index % 2 ? second.url : first.url, session, index, state));
      expect(places(served).size).toBe(1);
    } finally {
      redis.disconnect();
      await first.close();
      await second.close();
      await place.destroy();
    }
  }, 60_000);
});
