/**
 * Gemini CLI through every upstream type: its recorded request bodies sent as
 * it sends them (`:streamGenerateContent?alt=sse`, `x-goog-api-key`) to the
 * simulator, a gemini channel (pass-through: the body arrives untouched) and
 * anthropic, openai-chat and openai-responses channels (translated, with
 * `x-switchyard-translation` naming what was mapped or ignored); and a
 * function-call round trip with @google/genai through each. The fakes are
 * scripted (agent-upstreams.ts).
 */
import { readFileSync } from 'node:fs';
import { GoogleGenAI, ThinkingLevel, type Content, type Part } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHELL_ARGS, SHELL_TOOL, SIGNATURE, startAgentUpstreams, type AgentUpstreams } from './agent-upstreams.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const CLIENT_KEY = 'AIza-client-agents';
const DIR = new URL('../fixtures/agents/gemini-cli-0.61.0/', import.meta.url);
const recorded = (file: string) => JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) as { path: string; headers: Record<string, string>; body: Record<string, unknown> };
const MODEL_CHOICE = '00-gemini-3.5-flash-lite-model-choice-turn.json';
const FIRST_TURN = '02-gemini-3.1-pro-preview-tool-first-turn.json';
const RESULT_TURN = '03-gemini-3.1-pro-preview-tool-result-turn.json';

let fakes: AgentUpstreams;
let gw: TestGateway;

beforeAll(async () => {
  fakes = await startAgentUpstreams();
  gw = await startGateway({
    config: {
      channels: [
        { name: 'sim', type: 'simulator', models: ['sim-*'] },
        { name: 'gemini', type: 'gemini', baseUrl: fakes.gemini.origin, apiKey: 'AIza-upstream', models: ['gem-*'] },
        { name: 'anthropic', type: 'anthropic', baseUrl: fakes.anthropic.origin, apiKey: 'sk-ant-upstream', models: ['claude-*'] },
        { name: 'chat', type: 'openai-chat', baseUrl: `${fakes.openaiChat.origin}/v1`, apiKey: 'sk-chat-upstream', models: ['chat-*'] },
        { name: 'responses', type: 'openai-responses', baseUrl: `${fakes.openaiResponses.origin}/v1`, apiKey: 'sk-resp-upstream', models: ['resp-*'] },
      ],
      keys: [{ name: 'client', key: CLIENT_KEY }],
    },
  });
});
afterAll(async () => {
  await gw?.close();
  await fakes?.close();
});

/** Sends a recorded body to `model` the way Gemini CLI does, and reads the SSE answer's parts. */
async function replay(file: string, model: string) {
  const { path, headers, body } = recorded(file);
  const method = /:(\w+)/.exec(path)![1];
  const res = await fetch(`${gw.url}/v1beta/models/${model}:${method}${method === 'streamGenerateContent' ? '?alt=sse' : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': headers['user-agent'], 'x-goog-api-key': CLIENT_KEY },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const chunks =
    method === 'streamGenerateContent'
      ? text
          .split(/\r?\n/)
          .filter((line) => line.startsWith('data: '))
          .map((line) => JSON.parse(line.slice(6)))
      : [JSON.parse(text)];
  const parts: Part[] = chunks.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? []);
  return { res, body, chunks, parts, translation: res.headers.get('x-switchyard-translation') };
}

const translatedModels = ['sim-agent', 'claude-agent', 'chat-agent', 'resp-agent'] as const;

describe('Gemini CLI request bodies on every upstream type', () => {
  it('pass through to a gemini channel untouched', async () => {
    for (const file of [MODEL_CHOICE, FIRST_TURN, RESULT_TURN]) {
      const { res, body, translation } = await replay(file, 'gem-agent');
      expect(res.status, file).toBe(200);
      expect(translation).toBeNull();
      const seen = fakes.gemini.requests.at(-1)!;
      expect(seen.json()).toEqual(body);
      expect(seen.headers['x-goog-api-key']).toBe('AIza-upstream');
    }
    const first = await replay(FIRST_TURN, 'gem-agent');
    expect(first.parts).toEqual([{ functionCall: { name: SHELL_TOOL, args: SHELL_ARGS }, thoughtSignature: SIGNATURE }]);
  });

  it('are served by translation everywhere else, naming top_k ignored and thinking.adaptive mapped', async () => {
    const expected: Record<string, string> = {
      'sim-agent': 'mapped=thinking.adaptive; ignored=top_k',
      'claude-agent': 'mapped=thinking.adaptive',
      'chat-agent': 'mapped=thinking.adaptive; ignored=top_k',
      'resp-agent': 'mapped=thinking.adaptive; ignored=top_k',
    };
    for (const model of translatedModels) {
      const first = await replay(FIRST_TURN, model);
      expect(first.res.status, model).toBe(200);
      expect(first.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(first.translation, model).toBe(expected[model]);
      const call = first.parts.find((part) => part.functionCall)?.functionCall;
      expect(call?.name, model).toBe(SHELL_TOOL);
      expect(first.chunks.at(-1).candidates[0].finishReason).toBe('STOP');

      const result = await replay(RESULT_TURN, model);
      expect(result.res.status, model).toBe(200);
      const answer = result.parts.map((part) => (part.thought ? '' : (part.text ?? ''))).join('');
      expect(answer, model).toContain('SWITCHYARD_TOOL_OK');

      const choice = await replay(MODEL_CHOICE, model);
      expect(choice.res.status, model).toBe(200);
    }
  });

  it('reach each translated upstream in its own words: top_k kept or dropped, thinking level as effort', async () => {
    await replay(FIRST_TURN, 'claude-agent');
    const messages = fakes.anthropic.requests.at(-1)!.json<Record<string, any>>();
    expect(messages.top_k).toBe(64);
    expect(messages.tools.map((tool: { name: string }) => tool.name)).toContain(SHELL_TOOL);

    await replay(FIRST_TURN, 'chat-agent');
    const chat = fakes.openaiChat.requests.at(-1)!.json<Record<string, any>>();
    expect(chat).not.toHaveProperty('top_k');
    expect(chat.reasoning_effort).toBe('high');
    expect(chat.messages[0].role).toBe('system');

    await replay(FIRST_TURN, 'resp-agent');
    const responses = fakes.openaiResponses.requests.at(-1)!.json<Record<string, any>>();
    expect(responses).not.toHaveProperty('top_k');
    expect(responses.reasoning).toMatchObject({ effort: 'high' });

    await replay(MODEL_CHOICE, 'chat-agent');
    const choice = fakes.openaiChat.requests.at(-1)!.json<Record<string, any>>();
    expect(choice.response_format.json_schema.schema).toMatchObject({ type: 'object', properties: { model_choice: { type: 'string' } } });
  });
});

describe('a function-call round trip with @google/genai', () => {
  const genai = () => new GoogleGenAI({ apiKey: CLIENT_KEY, httpOptions: { baseUrl: gw.url } });
  const config = {
    topK: 64,
    thinkingConfig: { thinkingLevel: ThinkingLevel.HIGH, includeThoughts: true },
    tools: [
      {
        functionDeclarations: [{ name: SHELL_TOOL, description: 'Runs a shell command', parametersJsonSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } }],
      },
    ],
  };

  for (const model of ['gem-agent', ...translatedModels]) {
    it(`through ${model}`, async () => {
      const prompt = `USE_SHELL: run ${SHELL_TOOL} with echo SWITCHYARD_TOOL_OK`;
      const history: Content[] = [{ role: 'user', parts: [{ text: prompt }] }];
      const stream = await genai().models.generateContentStream({ model, contents: history, config });
      const modelParts: Part[] = [];
      for await (const chunk of stream) modelParts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
      const call = modelParts.find((part) => part.functionCall)?.functionCall;
      expect(call?.name).toBe(SHELL_TOOL);
      expect(call?.args).toMatchObject({ command: expect.any(String) });

      history.push({ role: 'model', parts: modelParts });
      history.push({ role: 'user', parts: [{ functionResponse: { id: call!.id, name: SHELL_TOOL, response: { output: 'SWITCHYARD_TOOL_OK' } } }] });
      const answer = await genai().models.generateContent({ model, contents: history, config });
      expect(answer.text).toContain('SWITCHYARD_TOOL_OK');
      expect(answer.candidates?.[0].finishReason).toBe('STOP');
    });
  }

  it('hands each translated upstream the result paired with its call', async () => {
    const chat = fakes.openaiChat.requests.at(-1)!.json<Record<string, any>>();
    const assistant = chat.messages.find((message: { role: string }) => message.role === 'assistant');
    const tool = chat.messages.at(-1);
    expect(tool).toMatchObject({ role: 'tool', tool_call_id: assistant.tool_calls[0].id, content: 'SWITCHYARD_TOOL_OK' });

    const responses = fakes.openaiResponses.requests.at(-1)!.json<Record<string, any>>();
    const fnCall = responses.input.find((item: { type: string }) => item.type === 'function_call');
    expect(responses.input.at(-1)).toMatchObject({ type: 'function_call_output', call_id: fnCall.call_id });

    const gemini = fakes.gemini.requests.at(-1)!.json<Record<string, any>>();
    expect(gemini.contents[1].parts[0]).toMatchObject({ functionCall: { name: SHELL_TOOL }, thoughtSignature: SIGNATURE });
  });
});
