import type { ChatEvent, ChatRequest, ChatResponse } from '../../../src/core/chat.js';
import { simulatorAdapter } from '../../../src/upstreams/simulator/index.js';
import type { Channel } from '../../../src/core/channel.js';
import type { UpstreamCall } from '../../../src/upstreams/types.js';
import { sendChat } from '../support/call.js';

export function makeCall(settings: Record<string, unknown> = {}, overrides: Partial<UpstreamCall> = {}): UpstreamCall {
  const channel: Channel = {
    id: 'ch_sim',
    name: 'simulator',
    type: 'simulator',
    baseUrl: '',
    apiKeys: [],
    models: [],
    modelMapping: {},
    priority: 0,
    weight: 1,
    enabled: true,
    settings,
  };
  return {
    channel,
    upstreamModel: 'sim-upstream-model',
    apiKey: '',
    signal: new AbortController().signal,
    requestId: 'req_test',
    clientHeaders: {},
    timeoutMs: 10_000,
    ...overrides,
  };
}

export function userRequest(text: string, extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: 'any-model', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text }] }], ...extra };
}

export const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
};

export async function plain(request: ChatRequest, call = makeCall()): Promise<ChatResponse> {
  const result = await sendChat(simulatorAdapter, { ...request, stream: false }, call);
  if (result.stream) throw new Error('expected a plain answer');
  return result.response;
}

export async function streamed(request: ChatRequest, call = makeCall()): Promise<AsyncIterable<ChatEvent>> {
  const result = await sendChat(simulatorAdapter, { ...request, stream: true }, call);
  if (!result.stream) throw new Error('expected a stream');
  return result.events;
}

export async function collect(events: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const all: ChatEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** Folds events into a response, checking the sequence rules on the way. */
export function fold(events: ChatEvent[]): ChatResponse {
  const first = events[0];
  const last = events[events.length - 1];
  if (first?.type !== 'message_start') throw new Error('stream must begin with message_start');
  if (last?.type !== 'finish') throw new Error('stream must end with finish');
  const content: ChatResponse['content'] = [];
  const json: string[] = [];
  let open: number | undefined;
  for (const event of events.slice(1, -1)) {
    if (event.type === 'block_start') {
      if (open !== undefined || event.index !== content.length) throw new Error(`block ${event.index} starts out of order`);
      open = event.index;
      const block = event.block;
      if (block.type === 'text') content.push({ type: 'text', text: '' });
      else if (block.type === 'thinking') content.push({ type: 'thinking', text: '' });
      else if (block.type === 'tool_call') content.push({ type: 'tool_call', id: block.id, name: block.name, input: {} });
      else throw new Error('unexpected redacted thinking');
      json[event.index] = '';
      continue;
    }
    if (event.type === 'message_start' || event.type === 'finish') throw new Error(`${event.type} in the middle of the stream`);
    if (event.index !== open) throw new Error(`${event.type} for block ${event.index} while block ${open} is open`);
    const part = content[event.index];
    if (event.type === 'block_stop') {
      if (part.type === 'tool_call') part.input = JSON.parse(json[event.index]) as Record<string, unknown>;
      open = undefined;
    } else if (event.type === 'text_delta' && part.type === 'text') part.text += event.text;
    else if (event.type === 'thinking_delta' && part.type === 'thinking') part.text += event.text;
    else if (event.type === 'signature_delta' && part.type === 'thinking') part.signature = event.signature;
    else if (event.type === 'tool_input_delta' && part.type === 'tool_call') json[event.index] += event.json;
    else throw new Error(`${event.type} does not fit a ${part.type} block`);
  }
  if (open !== undefined) throw new Error(`block ${open} never stopped`);
  return {
    id: first.id ?? '',
    model: first.model ?? '',
    content,
    finishReason: last.reason,
    stopSequence: last.stopSequence ?? null,
    usage: last.usage,
  };
}

export function textOf(response: ChatResponse): string {
  return response.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
