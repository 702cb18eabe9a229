/**
 * docs/providers.md's walkthrough of each openai-chat preset, driven as
 * written: the channel is created with the section's `channels add` fields
 * through the admin API (its base URL pointed at a loopback fake of the
 * service, at the service's own path), its `Fills:` line is the preset
 * table's, and the channel is called with the official OpenAI SDK (Chat
 * Completions, passed through) and Anthropic SDK (Messages, translated),
 * plain and streamed. The fake behaves like the service (see
 * fake-openai-compatible.ts): a field it refuses fails the request, so a
 * quirk the preset misses fails here. The body it received is checked for
 * the budget field, `stream_options` and the fields the preset leaves out.
 */
import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_PRESET_NAMES, CHAT_PRESETS, type ChatPresetName } from '../../src/upstreams/openai-chat/presets.js';
import { answerText, REASONING, SERVICE_PROFILES, startServiceFake } from '../support/fake-openai-compatible.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import type { FakeUpstream } from '../upstreams/support/fake-upstream.js';

const CLIENT_KEY = 'sk-client-presets-01';
/** A model each channel serves and no other preset's channel does (their `--models` patterns overlap elsewhere). */
const MODEL: Record<ChatPresetName, string> = {
  deepseek: 'deepseek-reasoner',
  xai: 'grok-4',
  mistral: 'mistral-large-latest',
  groq: 'llama-3.3-70b-versatile',
  openrouter: 'anthropic/claude-sonnet-4.5',
  together: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
  fireworks: 'accounts/fireworks/models/llama-v3p1-8b-instruct',
  cerebras: 'gpt-oss-120b',
  vllm: 'Qwen/Qwen3-32B',
  ollama: 'qwen3:8b',
  'lm-studio': 'google/gemma-3-12b',
};

const doc = readFileSync('docs/providers.md', 'utf8');
const fakes = {} as Record<ChatPresetName, FakeUpstream>;
let gw: TestGateway;
let openai: OpenAI;
let anthropic: Anthropic;

/** A preset's section of the doc: from its heading to the next heading. */
function section(name: ChatPresetName): string {
  const start = doc.indexOf(`#### Preset \`${name}\``);
  expect(start, `docs/providers.md has a section for preset ${name}`).toBeGreaterThanOrEqual(0);
  const end = doc.slice(start + 1).search(/\n#{2,4} /);
  return end < 0 ? doc.slice(start) : doc.slice(start, start + 1 + end);
}

/** The `--flag value` pairs of the section's `channels add` line (single- or double-quoted values unquoted). */
function cliFlags(text: string): Record<string, string> {
  const line = text.split('\n').find((candidate) => candidate.startsWith('npm run cli -- channels add '));
  expect(line).toBeDefined();
  const words = [...line!.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3]);
  const flags: Record<string, string> = {};
  for (let at = 0; at < words.length; at++) if (words[at].startsWith('--')) flags[words[at].slice(2)] = words[++at];
  return flags;
}

/** What the doc must say the preset fills: its table entry, written out. */
function fillsLine(name: ChatPresetName): string {
  const preset = CHAT_PRESETS[name];
  return [`Fills: base URL \`${preset.baseUrl}\``, ...Object.entries(preset.settings).map(([key, value]) => `\`${key}: ${JSON.stringify(value)}\``)].join(', ');
}

const lastBody = (name: ChatPresetName) => fakes[name].requests.at(-1)!.json<Record<string, any>>();
const lastLog = async (model: string) => (await gw.admin('GET', `/logs?model=${encodeURIComponent(model)}`)).body.data[0];
const asksUsage = (name: ChatPresetName) => CHAT_PRESETS[name].settings.streamUsage !== false;
const leavesOut = (name: ChatPresetName, field: string) => (CHAT_PRESETS[name].settings.unsupportedFields ?? []).includes(field as never);

beforeAll(async () => {
  await Promise.all(CHAT_PRESET_NAMES.map(async (name) => (fakes[name] = await startServiceFake(name))));
  gw = await startGateway({ config: { keys: [{ name: 'client', key: CLIENT_KEY }] } });
  openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: CLIENT_KEY, maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: gw.url, apiKey: CLIENT_KEY, maxRetries: 0 });
});
afterAll(async () => {
  await gw?.close();
  await Promise.all(Object.values(fakes).map((fake) => fake.close()));
});

describe.each(CHAT_PRESET_NAMES.map((name) => [name]))('preset %s', (name) => {
  it('is created as docs/providers.md says, and the doc names what it fills', async () => {
    const text = section(name);
    expect.soft(text).toContain(fillsLine(name));
    const flags = cliFlags(text);
    expect(flags).toMatchObject({ name, type: 'openai-chat' });
    expect(flags['base-url'], 'the preset supplies the address').toBeUndefined();
    expect(JSON.parse(flags.settings)).toEqual({ preset: name });
    // The fake serves where the preset points, under the service's own path.
    expect(new URL(CHAT_PRESETS[name].baseUrl).pathname).toBe(SERVICE_PROFILES[name].prefix);
    const key = SERVICE_PROFILES[name].key;
    expect(flags['api-key'] !== undefined, 'a key exactly where the service wants one').toBe(key !== undefined);
    const created = await gw.admin('POST', '/channels', {
      name: flags.name,
      type: flags.type,
      baseUrl: `${fakes[name].origin}${SERVICE_PROFILES[name].prefix}`,
      ...(key ? { apiKey: key } : {}),
      models: flags.models.split(','),
      settings: JSON.parse(flags.settings),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await gw.gateway.ctx.channels.refresh();
  });

  it('serves a Chat Completions client (passed through), plain and streamed', async () => {
    const model = MODEL[name];
    const ask = { model, messages: [{ role: 'user' as const, content: 'Hello' }], max_tokens: 40 };
    const completion = await openai.chat.completions.create(ask);
    expect(completion.choices[0].message.content).toBe(answerText(name, false));
    expect(lastBody(name)).toEqual(ask);

    let streamed = '';
    for await (const chunk of await openai.chat.completions.create({ ...ask, stream: true })) streamed += chunk.choices[0]?.delta.content ?? '';
    expect(streamed).toBe(answerText(name, true));
    expect(lastBody(name).stream_options).toEqual(asksUsage(name) ? { include_usage: true } : undefined);
    // Asked for, or sent unasked: the service's own count is billed.
    expect(await lastLog(model)).toMatchObject({ family: 'chat-completions', estimated: false });
  });

  it('serves a Messages client (translated), plain and streamed, with the quirks applied', async () => {
    const model = MODEL[name];
    const ask = { model, max_tokens: 64, temperature: 0.5, metadata: { user_id: 'user-1' }, messages: [{ role: 'user' as const, content: 'Hello' }] };
    const message = await anthropic.messages.create(ask);
    const text = message.content.find((block) => block.type === 'text');
    expect(text && 'text' in text ? text.text : undefined).toBe(answerText(name, false));
    expect(message.content.some((block) => block.type === 'thinking')).toBe(SERVICE_PROFILES[name].reasoning !== undefined);
    const body = lastBody(name);
    const budget = CHAT_PRESETS[name].settings.maxTokensField ?? 'max_completion_tokens';
    expect(budget).toBe(SERVICE_PROFILES[name].budget);
    expect(body[budget]).toBe(64);
    expect(Object.keys(body)).not.toContain(budget === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens');
    expect(body.user).toBe(leavesOut(name, 'user') ? undefined : 'user-1');

    const final = await anthropic.messages.stream(ask).finalMessage();
    const streamedText = final.content.find((block) => block.type === 'text');
    expect(streamedText && 'text' in streamedText ? streamedText.text : undefined).toBe(answerText(name, true));
    expect(lastBody(name).stream_options).toEqual(asksUsage(name) ? { include_usage: true } : undefined);
    expect(await lastLog(model)).toMatchObject({ family: 'messages', estimated: false });
  });
});

describe('quirks a fake refuses', () => {
  it("leaves out the penalties xAI and Cerebras refuse, named in the translation header's ignored list", async () => {
    for (const name of ['xai', 'cerebras'] as const) {
      const response = await fetch(`${gw.url}/v1beta/models/${MODEL[name]}:generateContent`, {
        method: 'POST',
        headers: { 'x-goog-api-key': CLIENT_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hello' }] }], generationConfig: { presencePenalty: 0.5, frequencyPenalty: 0.2, maxOutputTokens: 30 } }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-switchyard-translation')).toContain('ignored=presence_penalty,frequency_penalty');
      expect(lastBody(name)).not.toHaveProperty('presence_penalty');
    }
  });

  it("relays Groq's own 400 to a Chat Completions client that sends a field Groq refuses", async () => {
    const error = await openai.chat.completions.create({ model: MODEL.groq, messages: [{ role: 'user', content: 'Hello' }], logprobs: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
  });

  it('gives DeepSeek reasoning back as reasoning_content on the next turn', async () => {
    await anthropic.messages.create({
      model: MODEL.deepseek,
      max_tokens: 64,
      messages: [
        { role: 'user', content: 'Hello' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: REASONING, signature: '' },
            { type: 'text', text: 'Hi.' },
          ],
        },
        { role: 'user', content: 'Again' },
      ],
    });
    expect(lastBody('deepseek').messages[1]).toMatchObject({ role: 'assistant', content: 'Hi.', reasoning_content: REASONING });
  });
});
