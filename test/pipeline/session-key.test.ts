/**
 * The session a request belongs to, derived from what the coding agents
 * really send (test/fixtures/agents/): every turn of one recorded session
 * gets one key, whether it is named by a header, an id in the body or the
 * conversation's stable prefix; other sessions, keys and models get others.
 */
import { describe, expect, it } from 'vitest';
import { headerSessionKey, sessionKeyOf } from '../../src/pipeline/session-key.js';
import type { ChatCall } from '../../src/pipeline/types.js';
import { messagesSessionHint } from '../../src/families/messages/session-hint.js';
import { chatCompletionsSessionHint } from '../../src/families/chat-completions/session-hint.js';
import { generateSessionHint } from '../../src/families/generate/session-hint.js';
import { responsesSessionAlias, responsesSessionHint } from '../../src/families/responses/session-hint.js';
import type { ResponsesExchange } from '../../src/families/responses/exchange.js';
import { agentRequest, type RecordedAgentRequest } from '../support/agent-fixtures.js';

type Hint = (body: Record<string, unknown>) => string | undefined;

function callOf(recorded: RecordedAgentRequest, hint: Hint, options: { keyId?: string; headers?: boolean } = {}): ChatCall {
  const body = recorded.body;
  return {
    requestId: 'r',
    key: { record: { id: options.keyId ?? 'key-1' } } as ChatCall['key'],
    clientIp: '127.0.0.1',
    headers: options.headers === false ? {} : recorded.headers,
    model: String(body.model ?? 'gemini-3.1-pro-preview'),
    stream: false,
    rawBody: Buffer.alloc(0),
    body,
    toCore: () => {
      throw new Error('not translated here');
    },
    startedAt: 0,
    sessionHint: () => hint(body),
  };
}

/** A Responses exchange as the hint reads it: the stored response it continues, its own id, whether it is stored. */
function exchangeOf(options: { previous?: { id: string; chain: string[] }; id?: string; stores?: boolean }): ResponsesExchange {
  return { id: options.id ?? 'resp_own', stores: options.stores ?? false, options: { history: { previous: options.previous } } } as unknown as ResponsesExchange;
}
const responsesHint =
  (exchange = exchangeOf({})): Hint =>
  (body) =>
    responsesSessionHint(body, exchange);

const claude = (file: string) => agentRequest('claude-code-2.1.328', file);
const codex = (file: string) => agentRequest('codex-0.169.0', file);
const opencode = (file: string) => agentRequest('opencode-1.18.33', file);
const gemini = (file: string) => agentRequest('gemini-cli-0.61.0', file);

describe('one recorded session, one key', () => {
  it.each([
    ['Claude Code (its session header)', claude('02-claude-opus-5-tool-first-turn.json'), claude('03-claude-opus-5-tool-result-turn.json'), messagesSessionHint as Hint],
    ['Codex (its session header)', codex('05-gpt-5.5-tool-first-turn.json'), codex('06-gpt-5.5-tool-result-turn.json'), responsesHint()],
    ['opencode (its session header)', opencode('04-gpt-5.5-tool-first-turn.json'), opencode('05-gpt-5.5-tool-result-turn.json'), chatCompletionsSessionHint as Hint],
    ['Gemini CLI (the stable prefix)', gemini('02-gemini-3.1-pro-preview-tool-first-turn.json'), gemini('03-gemini-3.1-pro-preview-tool-result-turn.json'), generateSessionHint as Hint],
  ])('%s', (_name, first, later, hint) => {
    const key = sessionKeyOf(callOf(first, hint));
    expect(key).toMatch(/^[\w-]{22}$/);
    expect(sessionKeyOf(callOf(later, hint))).toBe(key);
  });

  it.each([
    ['Claude Code: the session id in metadata.user_id', claude('02-claude-opus-5-tool-first-turn.json'), claude('03-claude-opus-5-tool-result-turn.json'), messagesSessionHint as Hint],
    ['Codex: prompt_cache_key', codex('05-gpt-5.5-tool-first-turn.json'), codex('06-gpt-5.5-tool-result-turn.json'), responsesHint()],
    [
      'opencode to Claude: the prefix without its moving cache marks',
      opencode('09-claude-sonnet-4-5-tool-first-turn.json'),
      opencode('10-claude-sonnet-4-5-tool-result-turn.json'),
      chatCompletionsSessionHint as Hint,
    ],
    ['opencode to GPT: the prefix', opencode('04-gpt-5.5-tool-first-turn.json'), opencode('05-gpt-5.5-tool-result-turn.json'), chatCompletionsSessionHint as Hint],
  ])('without its headers: %s', (_name, first, later, hint) => {
    const key = sessionKeyOf(callOf(first, hint, { headers: false }));
    expect(key).toBeDefined();
    expect(sessionKeyOf(callOf(later, hint, { headers: false }))).toBe(key);
  });

  it('Messages without a session anywhere: system, tools and first message, whatever cache marks moved', () => {
    const withoutMetadata = (recorded: RecordedAgentRequest) => ({ ...recorded, body: { ...recorded.body, metadata: undefined } });
    const first = sessionKeyOf(callOf(withoutMetadata(claude('02-claude-opus-5-tool-first-turn.json')), messagesSessionHint, { headers: false }));
    const later = sessionKeyOf(callOf(withoutMetadata(claude('03-claude-opus-5-tool-result-turn.json')), messagesSessionHint, { headers: false }));
    expect(later).toBe(first);
    // A plain user id names a person, not a session: the prefix decides.
    const userOnly = (recorded: RecordedAgentRequest) => ({ ...recorded, body: { ...recorded.body, metadata: { user_id: 'user-7' } } });
    expect(sessionKeyOf(callOf(userOnly(claude('03-claude-opus-5-tool-result-turn.json')), messagesSessionHint, { headers: false }))).toBe(first);
  });

  it('a stored Responses chain: the first turn is known by its own id, later turns by the chain it starts', () => {
    const first = { model: 'gpt-5.5', input: 'hello', store: true };
    const second = { model: 'gpt-5.5', input: [{ role: 'user', content: 'and then?' }], previous_response_id: 'resp_1' };
    const third = { model: 'gpt-5.5', input: [{ role: 'user', content: 'more' }], previous_response_id: 'resp_2' };
    const request = (body: Record<string, unknown>): RecordedAgentRequest => ({ method: 'POST', path: '/v1/responses', headers: {}, body });
    const firstExchange = exchangeOf({ id: 'resp_1', stores: true });
    const firstCall = callOf(request(first), responsesHint(firstExchange));
    firstCall.sessionAlias = () => responsesSessionAlias(firstExchange);
    const alias = firstCall.sessionAlias();
    expect(alias).toBeDefined();
    const secondKey = sessionKeyOf(callOf(request(second), responsesHint(exchangeOf({ previous: { id: 'resp_1', chain: [] } }))));
    const thirdKey = sessionKeyOf(callOf(request(third), responsesHint(exchangeOf({ previous: { id: 'resp_2', chain: ['resp_1'] } }))));
    expect(thirdKey).toBe(secondKey);
    // The alias is the name the follow-ups reach the first turn's pin by.
    expect(sessionKeyOf({ ...firstCall, sessionHint: () => alias })).toBe(secondKey);
    // A turn that is not stored, or continues a chain, adds no name.
    expect(responsesSessionAlias(exchangeOf({ stores: false }))).toBeUndefined();
    expect(responsesSessionAlias(exchangeOf({ stores: true, previous: { id: 'resp_1', chain: [] } }))).toBeUndefined();
  });

  it("a Responses conversation resent whole: a first turn's text input is the user message later turns begin with", () => {
    const request = (body: Record<string, unknown>): RecordedAgentRequest => ({ method: 'POST', path: '/v1/responses', headers: {}, body });
    const first = sessionKeyOf(callOf(request({ model: 'gpt-5.5', instructions: 'be brief', input: 'hello' }), responsesHint()));
    const later = sessionKeyOf(
      callOf(
        request({
          model: 'gpt-5.5',
          instructions: 'be brief',
          input: [
            { role: 'user', content: 'hello' },
            { role: 'assistant', content: 'hi' },
            { role: 'user', content: 'more' },
          ],
        }),
        responsesHint(),
      ),
    );
    expect(later).toBe(first);
  });

  it('Gemini cachedContent names the session', () => {
    const recorded = gemini('02-gemini-3.1-pro-preview-tool-first-turn.json');
    const withCache = (name: string) => ({ ...recorded, body: { ...recorded.body, cachedContent: name } });
    const key = sessionKeyOf(callOf(withCache('cachedContents/abc'), generateSessionHint));
    expect(key).toBe(sessionKeyOf(callOf({ ...withCache('cachedContents/abc'), body: { ...withCache('cachedContents/abc').body, contents: [] } }, generateSessionHint)));
    expect(sessionKeyOf(callOf(withCache('cachedContents/other'), generateSessionHint))).not.toBe(key);
  });
});

describe('different sessions, keys and models never share a key', () => {
  it('two recorded sessions of one agent differ', () => {
    const a = sessionKeyOf(callOf(opencode('04-gpt-5.5-tool-first-turn.json'), chatCompletionsSessionHint));
    const b = sessionKeyOf(callOf(opencode('09-claude-sonnet-4-5-tool-first-turn.json'), chatCompletionsSessionHint));
    expect(a).not.toBe(b);
    const gemini1 = sessionKeyOf(callOf(gemini('01-gemini-3.1-pro-preview-plain-turn.json'), generateSessionHint));
    const gemini2 = sessionKeyOf(callOf(gemini('02-gemini-3.1-pro-preview-tool-first-turn.json'), generateSessionHint));
    expect(gemini1).not.toBe(gemini2);
  });

  it('the same session under another client key, or for another model, is another session', () => {
    const recorded = claude('02-claude-opus-5-tool-first-turn.json');
    const key = sessionKeyOf(callOf(recorded, messagesSessionHint));
    expect(sessionKeyOf(callOf(recorded, messagesSessionHint, { keyId: 'key-2' }))).not.toBe(key);
    expect(sessionKeyOf(callOf({ ...recorded, body: { ...recorded.body, model: 'claude-other' } }, messagesSessionHint))).not.toBe(key);
  });

  it('the header-only key reads no body', () => {
    const recorded = codex('05-gpt-5.5-tool-first-turn.json');
    const call = callOf(recorded, () => {
      throw new Error('the body was read');
    });
    expect(headerSessionKey(call)).toBe(sessionKeyOf(callOf(recorded, responsesHint())));
    expect(headerSessionKey(callOf(gemini('02-gemini-3.1-pro-preview-tool-first-turn.json'), generateSessionHint))).toBeUndefined();
  });
});
