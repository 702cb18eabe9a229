/**
 * Which sealed reasoning state each protocol gives back, by origin: state
 * every provider of a protocol takes (Anthropic's thinking signatures,
 * Gemini's thought signatures) goes to any provider of it; account-bound
 * state (OpenAI's encrypted reasoning, `reasoning_details`) only to the
 * provider type (and API) that made it. The origins of tokens already in
 * clients' histories (`anthropic`, `gemini`, `openai-chat`,
 * `openai-responses`) keep going where they went.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, ContentPart } from '../../src/core/chat.js';
import { anthropicAdapter } from '../../src/upstreams/anthropic/index.js';
import { azureOpenAiAdapter } from '../../src/upstreams/azure-openai/index.js';
import { geminiAdapter } from '../../src/upstreams/gemini/index.js';
import { openAiChatAdapter } from '../../src/upstreams/openai-chat/index.js';
import { openAiResponsesAdapter } from '../../src/upstreams/openai-responses/index.js';
import type { UpstreamAdapter } from '../../src/upstreams/types.js';
import { vertexAdapter } from '../../src/upstreams/vertex/index.js';
import { prepareWith } from './support/call.js';

const vertexSettings = { project: 'my-project', location: 'us-east5' };

/** A tool loop whose assistant turn starts with a thought carrying `state` of `origin`. */
function loop(thought: ContentPart, thinking = true): ChatRequest {
  return {
    model: 'm',
    stream: false,
    thinking: thinking ? { enabled: true, budgetTokens: 2048 } : undefined,
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
      { role: 'assistant', content: [thought, { type: 'tool_call', id: 'call_1', name: 'weather', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', callId: 'call_1', name: 'weather', content: [{ type: 'text', text: 'sunny' }] }] },
    ],
    tools: [{ type: 'function', name: 'weather', parameters: { type: 'object', properties: {} } }],
  };
}

const signed = (origin: string, signature: string): ContentPart => ({ type: 'thinking', text: 'I should call it', signature, origin });

function body(adapter: UpstreamAdapter, request: ChatRequest, upstreamModel: string, settings: Record<string, unknown> = {}): string {
  return JSON.stringify(prepareWith(adapter, request, { upstreamModel, settings }).body);
}

describe('Messages protocol: state of the protocol origin goes to every provider of it', () => {
  const providers = [
    ['anthropic', anthropicAdapter as UpstreamAdapter, 'claude-sonnet-4-5', {}],
    ['vertex (Claude models)', vertexAdapter as UpstreamAdapter, 'claude-sonnet-4-5', vertexSettings],
  ] as const;

  it.each(providers)('%s takes back a signature sealed by any Messages provider, and keeps thinking on', (_name, adapter, model, settings) => {
    const sent = body(adapter, loop(signed('anthropic', 'sig-A')), model, settings);
    expect(sent).toContain('"signature":"sig-A"');
    expect(sent).toContain('"thinking":{"type":"enabled"');
  });

  it.each(providers)('%s drops state of other origins (the old vertex tag, gemini, openai)', (_name, adapter, model, settings) => {
    for (const origin of ['vertex', 'gemini', 'openai-responses', 'azure-openai/responses']) {
      const sent = body(adapter, loop(signed(origin, 'sig-X')), model, settings);
      expect(sent).not.toContain('sig-X');
      // Without its signed thought the tool loop turn goes with thinking off.
      expect(sent).not.toContain('"thinking":{');
    }
  });

  it('every Messages provider seals with the same origin', () => {
    const prepared = prepareWith(vertexAdapter as UpstreamAdapter, loop(signed('anthropic', 's')), { upstreamModel: 'claude-sonnet-4-5', settings: vertexSettings });
    expect(vertexAdapter.reasoningOrigin?.(prepared as never)).toBe('anthropic');
    expect(anthropicAdapter.reasoningOrigin?.(prepareWith(anthropicAdapter, loop(signed('anthropic', 's'))))).toBe('anthropic');
  });
});

describe('content-generation protocol: Gemini signatures go to the Gemini API and Vertex alike', () => {
  const providers = [
    ['gemini', geminiAdapter as UpstreamAdapter, {}],
    ['vertex (Gemini models)', vertexAdapter as UpstreamAdapter, vertexSettings],
  ] as const;

  it.each(providers)('%s takes back a gemini signature and drops the others', (_name, adapter, settings) => {
    expect(body(adapter, loop(signed('gemini', 'sig-G'), false), 'gemini-2.5-flash', settings)).toContain('"thoughtSignature":"sig-G"');
    for (const origin of ['anthropic', 'vertex', 'openai-responses']) expect(body(adapter, loop(signed(origin, 'sig-X'), false), 'gemini-2.5-flash', settings)).not.toContain('sig-X');
  });

  it('a vertex Gemini model seals with the protocol origin', () => {
    const prepared = prepareWith(vertexAdapter as UpstreamAdapter, loop(signed('gemini', 's'), false), { upstreamModel: 'gemini-2.5-flash', settings: vertexSettings });
    expect(vertexAdapter.reasoningOrigin?.(prepared as never)).toBe('gemini');
  });
});

describe('Responses protocol: encrypted reasoning goes back only to the account type (and API) that made it', () => {
  const proof = (origin: string) => signed(origin, 'rs_1:ENCRYPTED');
  const responsesAzure = { api: 'responses' };

  it('openai-responses takes its own and drops Azure’s', () => {
    expect(body(openAiResponsesAdapter as UpstreamAdapter, loop(proof('openai-responses')), 'gpt-5')).toContain('"encrypted_content":"ENCRYPTED"');
    for (const origin of ['azure-openai/responses', 'azure-openai', 'anthropic']) expect(body(openAiResponsesAdapter as UpstreamAdapter, loop(proof(origin)), 'gpt-5')).not.toContain('ENCRYPTED');
  });

  it('azure-openai Responses takes its own and drops openai-responses state and the Chat Completions API’s', () => {
    const azure = azureOpenAiAdapter as unknown as UpstreamAdapter;
    expect(body(azure, loop(proof('azure-openai/responses')), 'gpt-5', responsesAzure)).toContain('"encrypted_content":"ENCRYPTED"');
    for (const origin of ['openai-responses', 'azure-openai/chat-completions', 'azure-openai']) expect(body(azure, loop(proof(origin)), 'gpt-5', responsesAzure)).not.toContain('ENCRYPTED');
    expect(azure.reasoningOrigin?.(prepareWith(azure, loop(proof('x')), { upstreamModel: 'gpt-5', settings: responsesAzure }))).toBe('azure-openai/responses');
  });
});

describe('Chat Completions protocol: reasoning_details go back only to the provider type that made them', () => {
  const details = (origin: string) => signed(origin, JSON.stringify([{ type: 'reasoning.encrypted', data: 'DETAILS', id: 'call_1' }]));

  it('openai-chat takes its own, not another type’s', () => {
    expect(body(openAiChatAdapter as UpstreamAdapter, loop(details('openai-chat')), 'gpt-x')).toContain('"reasoning_details"');
    for (const origin of ['azure-openai/chat-completions', 'openai-responses']) expect(body(openAiChatAdapter as UpstreamAdapter, loop(details(origin)), 'gpt-x')).not.toContain('DETAILS');
  });

  it('azure-openai Chat Completions takes its own, not openai-chat’s', () => {
    const azure = azureOpenAiAdapter as unknown as UpstreamAdapter;
    expect(body(azure, loop(details('azure-openai/chat-completions')), 'gpt-x')).toContain('DETAILS');
    expect(body(azure, loop(details('openai-chat')), 'gpt-x')).not.toContain('DETAILS');
  });
});

describe('refusals and hints name the channel type', () => {
  const sampling: ChatRequest = { model: 'm', stream: false, seed: 7, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };

  it('names the vertex type and the part serving the model, and plain types by their type', () => {
    const note = (adapter: UpstreamAdapter, model: string, settings: Record<string, unknown> = {}) =>
      prepareWith(adapter, sampling, { upstreamModel: model, settings }).decisions.decisions.find((decision) => decision.field === 'seed')?.note;
    expect(note(vertexAdapter as UpstreamAdapter, 'claude-sonnet-4-5', vertexSettings)).toBe('the vertex upstream (Claude models) has no seed');
    expect(note(anthropicAdapter as UpstreamAdapter, 'claude-sonnet-4-5')).toBe('the anthropic upstream has no seed');
    expect(note(azureOpenAiAdapter as unknown as UpstreamAdapter, 'gpt-5', { api: 'responses' })).toBe('the azure-openai upstream (Responses API) has no seed');
  });

  it('a strict refusal names it too, while the plan keeps the type', () => {
    const plan = prepareWith(vertexAdapter as UpstreamAdapter, sampling, { strict: true, upstreamModel: 'claude-sonnet-4-5', settings: vertexSettings }).decisions;
    expect(plan.upstream).toBe('vertex');
    expect(plan.refusal?.message).toContain('the vertex upstream (Claude models) serving this model would ignore it');
  });
});
