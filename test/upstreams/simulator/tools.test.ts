import { describe, expect, it } from 'vitest';
import type { ChatRequest, ToolCallPart } from '../../../src/core/chat.js';
import { countTokens } from '../../../src/core/tokens.js';
import { collect, fold, plain, streamed, textOf, userRequest, weatherTool } from './helpers.js';

const otherTool = {
  type: 'function' as const,
  name: 'search_docs',
  parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 5 } }, required: ['query', 'limit'] },
};

function toolCallOf(content: Awaited<ReturnType<typeof plain>>['content']): ToolCallPart {
  const call = content.find((part): part is ToolCallPart => part.type === 'tool_call');
  if (!call) throw new Error('no tool call in the answer');
  return call;
}

describe('simulator tool calls', () => {
  it('calls the first function tool when a call is required, with input valid against its schema', async () => {
    const response = await plain(userRequest('Paris', { tools: [weatherTool, otherTool], toolChoice: { type: 'required' } }));
    expect(response.finishReason).toBe('tool_use');
    expect(response.content[0]).toEqual({ type: 'text', text: "I'll call get_weather." });
    const call = toolCallOf(response.content);
    expect(call.name).toBe('get_weather');
    expect(call.id).toMatch(/^call_[0-9a-f]{24}$/);
    // additionalProperties: false, required city (a string): exactly one key.
    expect(call.input).toEqual({ city: 'Paris' });
    expect(response.usage.outputTokens).toBe(countTokens("I'll call get_weather.") + countTokens('get_weather') + countTokens('{"city":"Paris"}'));
  });

  it('calls the tool that tool_choice names', async () => {
    const response = await plain(userRequest('find the install guide', { tools: [weatherTool, otherTool], toolChoice: { type: 'tool', name: 'search_docs' } }));
    const call = toolCallOf(response.content);
    expect(call.name).toBe('search_docs');
    expect(call.input).toEqual({ query: 'find the install guide', limit: 1 });
  });

  it('calls a tool the user names, as a case-insensitive whole word', async () => {
    const response = await plain(userRequest('Please use GET_WEATHER for Oslo', { tools: [otherTool, weatherTool] }));
    expect(toolCallOf(response.content).name).toBe('get_weather');
    expect(toolCallOf(response.content).input).toEqual({ city: 'Please use GET_WEATHER for Oslo' });
  });

  it('does not call a tool on a partial word, with tool_choice none, or without a mention', async () => {
    const tools = [weatherTool];
    for (const request of [
      userRequest('what do get_weathers return?', { tools }),
      userRequest('use get_weather', { tools, toolChoice: { type: 'none' } }),
      userRequest('what is the weather?', { tools, toolChoice: { type: 'auto' } }),
    ]) {
      const response = await plain(request);
      expect(response.content.every((part) => part.type === 'text')).toBe(true);
      expect(response.finishReason).toBe('stop');
    }
  });

  it('refuses a tool_choice that cannot be honoured', async () => {
    await expect(plain(userRequest('x', { tools: [weatherTool], toolChoice: { type: 'tool', name: 'missing' } }))).rejects.toMatchObject({
      kind: 'invalid_request',
      param: 'tool_choice',
    });
    await expect(plain(userRequest('x', { toolChoice: { type: 'required' } }))).rejects.toMatchObject({ kind: 'invalid_request' });
  });

  it('builds inputs for Gemini-style uppercase schemas', async () => {
    const tool = {
      type: 'function' as const,
      name: 'set_alarm',
      parameters: { type: 'OBJECT', properties: { time: { type: 'STRING', format: 'date-time' }, repeat: { type: 'BOOLEAN' } }, required: ['time'] },
    };
    const call = toolCallOf((await plain(userRequest('wake me', { tools: [tool], toolChoice: { type: 'required' } }))).content);
    expect(call.input).toEqual({ time: '2024-01-01T00:00:00Z', repeat: true });
  });

  it('drops a tool call that does not fit in maxTokens', async () => {
    const response = await plain(userRequest('use get_weather', { tools: [weatherTool], maxTokens: 8 }));
    expect(response.finishReason).toBe('length');
    expect(response.content.some((part) => part.type === 'tool_call')).toBe(false);
  });

  it('streams the tool input in several deltas that concatenate to valid JSON', async () => {
    const request = userRequest('weather in Paris please, via get_weather', { tools: [weatherTool] });
    const events = await collect(await streamed(request));
    const deltas = events.filter((event) => event.type === 'tool_input_delta');
    expect(deltas.length).toBeGreaterThan(2);
    const folded = fold(events);
    expect(folded).toEqual(await plain(request));
    expect(toolCallOf(folded.content).input).toEqual({ city: 'weather in Paris please, via get_weather' });
  });
});

describe('simulator tool results', () => {
  const conversation = (isError?: boolean): ChatRequest => ({
    model: 'm',
    stream: false,
    tools: [weatherTool],
    toolChoice: { type: 'required' },
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'use get_weather for Paris' }] },
      { role: 'assistant', content: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', callId: 'call_1', name: 'get_weather', content: [{ type: 'text', text: '18°C and sunny' }], isError },
          { type: 'tool_result', callId: 'call_2', content: [{ type: 'text', text: 'second result' }] },
        ],
      },
    ],
  });

  it('reports each result in text and does not call a tool again', async () => {
    const response = await plain(conversation());
    const text = textOf(response);
    expect(text).toContain('The tool returned: 18°C and sunny.');
    expect(text).toContain('The tool returned: second result.');
    expect(response.content.every((part) => part.type === 'text')).toBe(true);
    expect(response.finishReason).toBe('stop');
    expect(countTokens(text)).toBeGreaterThanOrEqual(24);
  });

  it('says when a tool reported an error', async () => {
    expect(textOf(await plain(conversation(true)))).toContain('The tool reported an error: 18°C and sunny.');
  });
});
