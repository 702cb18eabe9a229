/**
 * Gemini CLI 0.61.0's requests (test/fixtures/agents/gemini-cli-0.61.0):
 * the model-choice call, a first turn with its tools and `thinkingLevel`, and
 * a function-response turn carrying a `thoughtSignature`, through
 * validation, the internal request, and the plan and conversion of every
 * upstream type: none refuses.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest, ToolCallPart, ToolResultPart } from '../../../src/core/chat.js';
import { generateToCore } from '../../../src/families/generate/to-core.js';
import { parseGenerateRequest } from '../../../src/families/generate/validate.js';
import { toMessagesRequest } from '../../../src/upstreams/protocols/messages/convert-request.js';
import { toGeminiRequest } from '../../../src/upstreams/protocols/generate/convert-request.js';
import { toChatCompletionRequest } from '../../../src/upstreams/protocols/chat-completions/convert-request.js';
import { toResponsesRequest } from '../../../src/upstreams/protocols/responses/convert-request.js';
import { defaultAdapters } from '../../../src/upstreams/registry.js';
import { simulateAnswer } from '../../../src/upstreams/simulator/answer.js';
import { planOf } from '../../upstreams/support/call.js';

const DIR = new URL('../../fixtures/agents/gemini-cli-0.61.0/', import.meta.url);
const recorded = (file: string) => JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) as { path: string; body: Record<string, unknown> };

const files = {
  modelChoice: '00-gemini-3.5-flash-lite-model-choice-turn.json',
  plain: '01-gemini-3.1-pro-preview-plain-turn.json',
  firstTurn: '02-gemini-3.1-pro-preview-tool-first-turn.json',
  resultTurn: '03-gemini-3.1-pro-preview-tool-result-turn.json',
};

function toCore(file: string): ChatRequest {
  const { path, body } = recorded(file);
  const model = /models\/([^:]+):/.exec(path)![1];
  return generateToCore(parseGenerateRequest(structuredClone(body)), model, path.includes('streamGenerateContent'));
}

const converters: Record<string, (request: ChatRequest) => unknown> = {
  simulator: (request) => simulateAnswer(request, 'sim'),
  anthropic: (request) => toMessagesRequest(request, 'claude-x'),
  gemini: (request) => toGeminiRequest(request, 'gemini-3.1-pro-preview'),
  'openai-chat': (request) => toChatCompletionRequest(request, 'gpt-x'),
  'openai-responses': (request) => toResponsesRequest(request, 'gpt-x'),
  // Translated to Chat Completions by default (its `api` setting).
  'azure-openai': (request) => toChatCompletionRequest(request, 'gpt-x'),
  // Gemini models on Vertex take the content-generation body (the model is in the path).
  vertex: (request) => toGeminiRequest(request, 'gemini-3.1-pro-preview'),
  // Anthropic models on Bedrock take the Messages body (InvokeModel).
  bedrock: (request) => toMessagesRequest(request, 'claude-x'),
};

/** The upstream model a type is planned for where the type picks its protocol by model. */
const upstreamModels: Record<string, string> = { vertex: 'gemini-3.1-pro-preview', bedrock: 'anthropic.claude-sonnet-4-5-20250929-v1:0' };

describe('Gemini CLI 0.61.0 requests', () => {
  it('validate as they are', () => {
    for (const file of Object.values(files)) expect(() => parseGenerateRequest(structuredClone(recorded(file).body)), file).not.toThrow();
  });

  it('the model-choice call: JSON output with the schema written the standard way, a fixed thinking budget', () => {
    const request = toCore(files.modelChoice);
    expect(request).toMatchObject({ model: 'gemini-3.5-flash-lite', stream: false, temperature: 0, topP: 1, topK: 64, maxTokens: 1024 });
    expect(request.thinking).toEqual({ enabled: true, includeThoughts: false, budgetTokens: 512 });
    expect(request.responseFormat).toMatchObject({
      type: 'json_schema',
      schema: { type: 'object', properties: { reasoning: { type: 'string' }, model_choice: { type: 'string', enum: ['flash', 'pro'] } } },
    });
  });

  it('the first turn: adaptive thinking at high effort, top_k, and its function tools', () => {
    const request = toCore(files.firstTurn);
    expect(request).toMatchObject({ model: 'gemini-3.1-pro-preview', stream: true, temperature: 1, topP: 0.95, topK: 64 });
    expect(request.thinking).toEqual({ enabled: true, adaptive: true, effort: 'high', includeThoughts: true });
    expect(request.tools).toHaveLength(15);
    expect(request.tools!.every((tool) => tool.type === 'function')).toBe(true);
    const shell = request.tools!.find((tool) => tool.type === 'function' && tool.name === 'run_shell_command');
    expect(shell).toMatchObject({ parameters: { type: 'object', properties: { command: { type: 'string' } } } });
    expect(request.system).toMatch(/^You are Gemini CLI/);
  });

  it('the function-response turn: the call keeps its id and signature, the response answers it', () => {
    const request = toCore(files.resultTurn);
    const [, model, results] = request.messages;
    const call = model.content.find((part): part is ToolCallPart => part.type === 'tool_call')!;
    expect(call).toMatchObject({ id: 'run_shell_command_1795469200430_0', name: 'run_shell_command', input: { command: 'echo SWITCHYARD_TOOL_OK' } });
    expect(JSON.stringify(model.content)).toContain('ZmFrZS1zaWduYXR1cmUtckdta21uY295TzVmdG1ZckZ0T1FZMQ==');
    const result = results.content[0] as ToolResultPart;
    expect(result).toMatchObject({ type: 'tool_result', callId: call.id, name: 'run_shell_command' });
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('SWITCHYARD_TOOL_OK') });
  });

  it('every upstream type plans them without a refusal (top_k a hint where missing, adaptive thinking mapped) and converts them', async () => {
    const adapters = await defaultAdapters();
    expect(adapters.types().sort()).toEqual(Object.keys(converters).sort());
    for (const file of Object.values(files)) {
      const request = toCore(file);
      for (const type of adapters.types()) {
        const plan = planOf(adapters.get(type), request, { strict: false, settings: {}, upstreamModel: upstreamModels[type] });
        expect(plan.refusal, `${type} ${file}`).toBeUndefined();
        expect(plan.decisions.filter((d) => d.treatment === 'refused')).toEqual([]);
        if (type !== 'anthropic' && type !== 'gemini' && type !== 'vertex' && type !== 'bedrock') expect(plan.decisions).toContainEqual(expect.objectContaining({ field: 'top_k', treatment: 'hint' }));
        if (request.thinking?.adaptive) expect(plan.decisions).toContainEqual(expect.objectContaining({ field: 'thinking.adaptive', treatment: 'mapped' }));
        expect(() => converters[type](structuredClone(request)), `${type} ${file}`).not.toThrow();
      }
    }
  });

  it('translated requests carry the shell tool and the tool loop on every dialect', () => {
    const request = toCore(files.resultTurn);
    const chat = toChatCompletionRequest(request, 'gpt-x') as { messages: Array<Record<string, unknown>>; tools: unknown[]; reasoning_effort?: string };
    expect(chat.reasoning_effort).toBe('high');
    expect(chat).not.toHaveProperty('top_k');
    expect(chat.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(chat.messages[3]).toMatchObject({ tool_call_id: 'run_shell_command_1795469200430_0' });
    const anthropic = toMessagesRequest(request, 'claude-x').body as { top_k?: number; tools: Array<{ name: string }> };
    expect(anthropic.top_k).toBe(64);
    expect(anthropic.tools.map((tool) => tool.name)).toContain('run_shell_command');
    const gemini = toGeminiRequest(request, 'gemini-3.1-pro-preview') as { contents: Array<{ parts: Array<Record<string, unknown>> }> };
    expect(gemini.contents[1].parts[0]).toMatchObject({ functionCall: { name: 'run_shell_command' }, thoughtSignature: expect.any(String) });
  });
});
