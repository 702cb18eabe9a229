/**
 * The cache benchmark's fake upstreams (bench/cache) must cache as the real
 * APIs do, or its ratios mean nothing: Anthropic only at breakpoints, OpenAI and
 * Gemini by prefix in 128-token steps from 1,024 tokens, always per key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCacheUpstream } from '../../bench/cache/fake-upstream.mjs';
import { BreakpointCache, PrefixCache } from '../../bench/cache/prompt-cache.mjs';

const chars = (tokens: number, fill = 'a') => fill.repeat(tokens * 4);

describe('Anthropic breakpoint cache', () => {
  const system = { text: chars(3000, 's'), ttl: '5m' as const };

  it('caches nothing without a breakpoint', () => {
    const cache = new BreakpointCache();
    cache.serve('k', [{ text: chars(3000) }]);
    expect(cache.serve('k', [{ text: chars(3000) }]).readTokens).toBe(0);
  });

  it('writes up to the last breakpoint, then reads it back on the same key only', () => {
    const cache = new BreakpointCache();
    const first = cache.serve('k1', [system, { text: chars(500, 'u') }]);
    expect(first).toMatchObject({ readTokens: 0, write5mTokens: 3000, write1hTokens: 0, promptTokens: 3500 });
    expect(cache.serve('k2', [system, { text: chars(500, 'u') }]).readTokens).toBe(0);
    const again = cache.serve('k1', [system, { text: chars(500, 'u') }, { text: chars(200, 'v'), ttl: '5m' }]);
    expect(again).toMatchObject({ readTokens: 3000, write5mTokens: 700 });
  });

  it("finds the previous turn's breakpoint within the lookback when the breakpoint moves", () => {
    const cache = new BreakpointCache();
    const turn1 = [system, { text: chars(100, 'a'), ttl: '5m' as const }];
    cache.serve('k', turn1);
    const turn2 = [system, { text: chars(100, 'a') }, { text: chars(30, 'b') }, { text: chars(100, 'c'), ttl: '5m' as const }];
    expect(cache.serve('k', turn2)).toMatchObject({ readTokens: 3100, write5mTokens: 130 });
  });

  it('does not cache a prefix shorter than 1,024 tokens', () => {
    const cache = new BreakpointCache();
    const short = [{ text: chars(900), ttl: '5m' as const }];
    expect(cache.serve('k', short).write5mTokens).toBe(0);
    expect(cache.serve('k', short).readTokens).toBe(0);
  });

  it('writes 1-hour breakpoints at their own TTL, and forgets after it', () => {
    const cache = new BreakpointCache();
    const blocks = [
      { text: chars(2000), ttl: '1h' as const },
      { text: chars(500, 'm'), ttl: '5m' as const },
    ];
    expect(cache.serve('k', blocks, 0)).toMatchObject({ write1hTokens: 2000, write5mTokens: 500 });
    expect(cache.serve('k', blocks, 30 * 60_000)).toMatchObject({ readTokens: 2000, write5mTokens: 500 });
    expect(cache.serve('k', blocks, 3 * 60 * 60_000).readTokens).toBe(0);
  });
});

describe('automatic prefix cache (OpenAI, Gemini implicit)', () => {
  it('reads the longest 128-token step of a shared prefix of at least 1,024 tokens', () => {
    const cache = new PrefixCache(600_000);
    cache.serve('k', chars(1500) + chars(100, 'x'));
    // 1,500 shared tokens: the steps at 1,024 + 3 × 128 = 1,408 match, 1,536 does not.
    expect(cache.serve('k', chars(1500) + chars(300, 'y'))).toEqual({ promptTokens: 1800, readTokens: 1408 });
    expect(cache.serve('other', chars(1500)).readTokens).toBe(0);
  });

  it('caches nothing under 1,024 tokens', () => {
    const cache = new PrefixCache(600_000);
    cache.serve('k', chars(1000));
    expect(cache.serve('k', chars(1000)).readTokens).toBe(0);
  });
});

describe('the fake upstream server', () => {
  const upstream = createCacheUpstream();
  let url = '';
  beforeAll(async () => {
    url = await upstream.listen();
  });
  afterAll(() => upstream.close());

  const post = async (path: string, headers: Record<string, string>, body: unknown) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, text: await res.text() };
  };
  const system = `cbs_0123456789ab ${chars(2000)}`;

  it('reports Anthropic cache reads and writes, plain and streamed', async () => {
    const body = { model: 'm', max_tokens: 10, system: [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }], messages: [{ role: 'user', content: 'hi' }] };
    const first = JSON.parse((await post('/v1/messages', { 'x-api-key': 'k' }, body)).text);
    // The system block as rendered (its JSON) is a few tokens more than its text.
    const written = first.usage.cache_creation_input_tokens;
    expect(written).toBeGreaterThan(2000);
    expect(first.usage).toMatchObject({ cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: written, ephemeral_1h_input_tokens: 0 } });
    const streamed = await post('/v1/messages', { 'x-api-key': 'k' }, { ...body, stream: true });
    expect(streamed.text).toContain(`"cache_read_input_tokens":${written}`);
    expect(upstream.records.filter((row) => row.marker === 'cbs_0123456789ab').map((row) => row.turn)).toEqual([1, 2]);
  });

  it('refuses more than four breakpoints as Anthropic does', async () => {
    const block = { type: 'text', text: 'x', cache_control: { type: 'ephemeral' } };
    const answer = await post('/v1/messages', { 'x-api-key': 'k' }, { model: 'm', max_tokens: 1, system: [block, block, block, block, block], messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('A maximum of 4 blocks with cache_control');
  });

  it('keys OpenAI caching by the key and prompt_cache_key, and reports cached_tokens', async () => {
    const body = {
      model: 'm',
      input: [
        { role: 'developer', content: system },
        { role: 'user', content: 'hi' },
      ],
      prompt_cache_key: 's1',
    };
    await post('/v1/responses', { authorization: 'Bearer k' }, body);
    const same = JSON.parse((await post('/v1/responses', { authorization: 'Bearer k' }, body)).text);
    expect(same.usage.input_tokens_details.cached_tokens).toBeGreaterThanOrEqual(1024);
    const otherKey = JSON.parse((await post('/v1/responses', { authorization: 'Bearer k' }, { ...body, prompt_cache_key: 's2' })).text);
    expect(otherKey.usage.input_tokens_details.cached_tokens).toBe(0);
    const chat = {
      model: 'm',
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: 'hi' },
      ],
      stream: true,
      stream_options: { include_usage: true },
    };
    await post('/v1/chat/completions', { authorization: 'Bearer k' }, chat);
    expect((await post('/v1/chat/completions', { authorization: 'Bearer k' }, chat)).text).toMatch(/"prompt_tokens_details":\{"cached_tokens":1\d\d\d/);
  });

  it('reports Gemini implicit caching as cachedContentTokenCount', async () => {
    const body = { systemInstruction: { parts: [{ text: system }] }, contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    const first = JSON.parse((await post('/v1beta/models/m:generateContent', { 'x-goog-api-key': 'g' }, body)).text);
    expect(first.usageMetadata.cachedContentTokenCount).toBeUndefined();
    const streamed = await post('/v1beta/models/m:streamGenerateContent?alt=sse', { 'x-goog-api-key': 'g' }, body);
    expect(streamed.text).toMatch(/"cachedContentTokenCount":1\d\d\d/);
  });
});

describe("the fake upstream's tool calls", () => {
  const upstream = createCacheUpstream({ toolEvery: 2 });
  let url = '';
  beforeAll(async () => {
    url = await upstream.listen();
  });
  afterAll(() => upstream.close());

  const post = async (path: string, headers: Record<string, string>, body: unknown): Promise<any> =>
    (await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })).json();

  it("calls the request's first tool on every n-th turn of a session", async () => {
    const body = {
      model: 'm',
      max_tokens: 10,
      system: 'cbs_00000000000a',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ name: 'Bash', description: 'run', input_schema: { type: 'object' } }],
    };
    const first = await post('/v1/messages', { 'x-api-key': 'k' }, body);
    expect(first.stop_reason).toBe('end_turn');
    const second = await post('/v1/messages', { 'x-api-key': 'k' }, body);
    expect(second.stop_reason).toBe('tool_use');
    expect(second.content[1]).toMatchObject({ type: 'tool_use', name: 'Bash' });
  });

  it('signs Gemini function calls, and counts replayed calls that lost their signature', async () => {
    const tools = [{ functionDeclarations: [{ name: 'run_shell_command', description: 'run' }] }];
    const contents = [{ role: 'user', parts: [{ text: 'cbs_00000000000b' }] }];
    await post('/v1beta/models/m:generateContent', { 'x-goog-api-key': 'g' }, { contents, tools });
    const answer = await post('/v1beta/models/m:generateContent', { 'x-goog-api-key': 'g' }, { contents, tools });
    const call = answer.candidates[0].content.parts[1];
    expect(call).toMatchObject({ functionCall: { name: 'run_shell_command' } });
    expect(call.thoughtSignature).toEqual(expect.any(String));
    const unsigned = [...contents, { role: 'model', parts: [{ functionCall: call.functionCall }] }, { role: 'user', parts: [{ functionResponse: { name: 'run_shell_command', response: {} } }] }];
    await post('/v1beta/models/m:generateContent', { 'x-goog-api-key': 'g' }, { contents: unsigned, tools });
    expect(upstream.records.at(-1)).toMatchObject({ marker: 'cbs_00000000000b', turn: 3, unsignedCalls: 1 });
  });
});
