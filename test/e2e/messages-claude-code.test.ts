/**
 * Claude Code's real requests (recorded from 2.1.328, test/fixtures/agents)
 * through every upstream type: the simulator, an anthropic channel
 * (pass-through: the upstream gets the client's bytes and anthropic-* headers),
 * and openai-chat, gemini and openai-responses channels (translation: 200, and
 * the translation header names what was mapped and what was ignored). Sent
 * raw, as the CLI sends them (`POST /v1/messages?beta=true`), and with the
 * official client; a tool loop (assistant `tool_use` for Bash, then the user's
 * `tool_result`) through each.
 */
import Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { sseReply } from '../upstreams/support/fixtures.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

interface Recorded {
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

const fixture = (file: string): Recorded => JSON.parse(readFileSync(new URL(`../fixtures/agents/claude-code-2.1.328/${file}`, import.meta.url), 'utf8')) as Recorded;

const opusPlain = fixture('01-claude-opus-5-plain-turn.json');
const opusToolFirst = fixture('02-claude-opus-5-tool-first-turn.json');
const opusToolResult = fixture('03-claude-opus-5-tool-result-turn.json');
const sonnetPlain = fixture('04-claude-sonnet-4-5-plain-turn.json');
const sonnetToolResult = fixture('06-claude-sonnet-4-5-tool-result-turn.json');

/** A minimal Responses stream: one text answer, or one function call. */
function responsesReply(kind: 'text' | 'call'): FakeReply {
  const item =
    kind === 'text'
      ? { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.', annotations: [] }] }
      : { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'Bash', arguments: '{"command":"echo hi"}', status: 'completed' };
  const events: Array<Record<string, unknown>> = [
    { type: 'response.created', response: { id: 'resp_1', model: 'gpt-x', status: 'in_progress', output: [] } },
    { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', ...(kind === 'text' ? { content: [] } : { arguments: '' }) } },
    ...(kind === 'text'
      ? [
          { type: 'response.content_part.added', output_index: 0, content_index: 0, item_id: 'msg_1', part: { type: 'output_text', text: '' } },
          { type: 'response.output_text.delta', output_index: 0, content_index: 0, item_id: 'msg_1', delta: 'Done.' },
          { type: 'response.content_part.done', output_index: 0, content_index: 0, item_id: 'msg_1', part: { type: 'output_text', text: 'Done.' } },
        ]
      : [{ type: 'response.function_call_arguments.delta', output_index: 0, item_id: 'fc_1', delta: '{"command":"echo hi"}' }]),
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: { id: 'resp_1', model: 'gpt-x', status: 'completed', output: [item], usage: { input_tokens: 9, output_tokens: 3, total_tokens: 12 } } },
  ];
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`) };
}

const replies = {
  anthropic: { text: () => sseReply('anthropic-messages', 'anthropic-text.chunks.txt'), call: () => sseReply('anthropic-messages', 'anthropic-tool-no-args.chunks.txt') },
  'openai-chat': { text: () => sseReply('openai-chat', 'openai-text.chunks.txt'), call: () => sseReply('openai-chat', 'alibaba-tool-call.chunks.txt') },
  gemini: { text: () => sseReply('gemini', 'google-text.chunks.txt'), call: () => sseReply('gemini', 'google-tool-call.chunks.txt') },
  'openai-responses': { text: () => responsesReply('text'), call: () => responsesReply('call') },
};
type FakeType = keyof typeof replies;
const translated = ['openai-chat', 'gemini', 'openai-responses'] as const;

const fakes = {} as Record<FakeType, FakeUpstream>;
let gw: TestGateway;

beforeAll(async () => {
  for (const type of Object.keys(replies) as FakeType[]) fakes[type] = await startFakeUpstream(replies[type].text());
  const base = (type: FakeType) => (type === 'anthropic' || type === 'gemini' ? fakes[type].origin : `${fakes[type].origin}/v1`);
  gw = await startGateway({
    config: {
      channels: [
        { name: 'sim', type: 'simulator', models: ['cc/simulator'] },
        { name: 'anthropic', type: 'anthropic', baseUrl: base('anthropic'), apiKey: 'sk-upstream-anthropic', models: ['cc/anthropic'], modelMapping: { 'cc/anthropic': 'claude-opus-5-upstream' } },
        ...translated.map((type) => ({ name: type, type, baseUrl: base(type), apiKey: `sk-upstream-${type}`, models: [`cc/${type}`] })),
      ],
      keys: [{ name: 'cli', key: 'sk-client-claude-code' }],
    },
  });
});

afterAll(async () => {
  await gw?.close();
  for (const fake of Object.values(fakes)) await fake?.close();
});

/** Sends a recorded request as the CLI did (its headers, its path with `?beta=true`), for another model name. */
async function sendRaw(recorded: Recorded, model: string) {
  const body = JSON.stringify({ ...recorded.body, model });
  const headers = { ...recorded.headers, 'x-api-key': 'sk-client-claude-code' };
  delete (headers as Record<string, string>)['accept-encoding'];
  const res = await fetch(`${gw.url}/v1/messages?beta=true`, { method: 'POST', headers, body });
  return { res, text: await res.text(), sent: body };
}

function streamedBlocks(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line.includes('"content_block_start"'))
    .map((line) => (JSON.parse(line.slice(6)) as { content_block: { type: string } }).content_block.type);
}

// Claude Code's cache marks go to each upstream's prompt cache; the simulator has none. Gemini has no end-user id
// (metadata.user_id), Chat Completions no switch for hiding thoughts (thinking.display); the OpenAI types take the
// sonnet shape's thinking budget as an effort word.
const ignored = 'ignored=x-anthropic-billing-header,context_management';
const expectedHeader: Record<string, { opus: string; sonnet: string }> = {
  simulator: { opus: `mapped=system messages,thinking.adaptive,defer_loading; ${ignored},cache_control`, sonnet: `mapped=defer_loading; ${ignored},cache_control` },
  gemini: { opus: `mapped=system messages,thinking.adaptive,defer_loading,cache_control; ${ignored},metadata.user_id`, sonnet: `mapped=defer_loading,cache_control; ${ignored},metadata.user_id` },
  'openai-chat': {
    opus: `mapped=thinking.adaptive,defer_loading,cache_control; ${ignored},thinking.display`,
    sonnet: `mapped=defer_loading,cache_control,thinking.budget_tokens; ${ignored},thinking.display`,
  },
  'openai-responses': { opus: `mapped=thinking.adaptive,defer_loading,cache_control; ${ignored}`, sonnet: `mapped=defer_loading,cache_control,thinking.budget_tokens; ${ignored}` },
};

describe('through an anthropic upstream (pass-through)', () => {
  it('forwards the client bytes (model aside) and the anthropic-* headers unchanged, to /v1/messages', async () => {
    fakes.anthropic.reply(replies.anthropic.text());
    const { res, text } = await sendRaw(opusToolResult, 'cc/anthropic');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-switchyard-translation')).toBeNull();
    expect(text).toContain('event: message_stop');
    const seen = fakes.anthropic.requests.at(-1)!;
    expect(seen.url).toBe('/v1/messages');
    expect(seen.body.toString('utf8')).toBe(JSON.stringify({ ...opusToolResult.body, model: 'claude-opus-5-upstream' }));
    expect(seen.headers['anthropic-beta']).toBe(opusToolResult.headers['anthropic-beta']);
    expect(seen.headers['anthropic-version']).toBe('2023-06-01');
    expect(seen.headers['x-api-key']).toBe('sk-upstream-anthropic');
    expect(seen.headers['x-claude-code-session-id']).toBeUndefined();
  });

  it("hands an upstream refusal back with the upstream's wording (Claude Code's retries match on it)", async () => {
    const message = "thinking.type: Input tag 'adaptive' found using 'type' does not match any of the expected tags";
    fakes.anthropic.reply({ status: 400, body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message } }) });
    const { res, text } = await sendRaw(opusPlain, 'cc/anthropic');
    expect(res.status).toBe(400);
    expect(JSON.parse(text)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message } });
  });
});

describe.each(['simulator', ...translated])('through %s (translation)', (type) => {
  const model = `cc/${type}`;
  const fake = () => (type === 'simulator' ? undefined : fakes[type as FakeType]);

  it.each([
    ['the newest shape (system-role message, adaptive thinking), first turn', opusPlain, 'opus'],
    ['the claude-sonnet-4-5 shape (enabled thinking), first turn', sonnetPlain, 'sonnet'],
  ] as const)('serves %s', async (_name, recorded, shape) => {
    fake()?.reply(replies[type as FakeType]?.text());
    const { res, text } = await sendRaw(recorded, model);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-switchyard-translation')).toBe(expectedHeader[type][shape]);
    expect(text).toContain('event: message_stop');
    expect(text).not.toContain('event: error');
  });

  it('runs the tool loop: a Bash call comes back as tool_use, its result goes upstream', async () => {
    if (type !== 'simulator') {
      fake()!.reply(replies[type as FakeType].call());
      const first = await sendRaw(opusToolFirst, model);
      expect(first.res.status).toBe(200);
      expect(streamedBlocks(first.text)).toContain('tool_use');
      fake()!.reply(replies[type as FakeType].text());
    }
    for (const recorded of [opusToolResult, sonnetToolResult]) {
      const { res, text } = await sendRaw(recorded, model);
      expect(res.status).toBe(200);
      expect(text).toContain('event: message_stop');
      if (type !== 'simulator') expect(fake()!.requests.at(-1)!.body.toString('utf8')).toContain('SWITCHYARD_TOOL_OK');
    }
  });
});

describe('with the official client (beta messages, as Claude Code calls them)', () => {
  const client = () => new Anthropic({ baseURL: gw.url, apiKey: 'sk-client-claude-code', maxRetries: 0 });

  it.each(['anthropic', 'simulator', ...translated])('streams a Claude Code request through %s', async (type) => {
    if (type !== 'simulator') fakes[type as FakeType].reply(replies[type as FakeType].text());
    const body = { ...opusToolResult.body, model: `cc/${type}` } as never;
    const betas = opusToolResult.headers['anthropic-beta'].split(',');
    const stream = client().beta.messages.stream(body, { headers: { 'anthropic-beta': betas.join(',') } });
    const message = await stream.finalMessage();
    expect(message.type).toBe('message');
    expect(message.stop_reason).not.toBeNull();
    if (type === 'anthropic') expect(fakes.anthropic.requests.at(-1)!.headers['anthropic-beta']).toBe(betas.join(','));
  });
});
