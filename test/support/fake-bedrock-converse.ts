/**
 * A fake Bedrock Converse / ConverseStream, as handlers a loopback Bedrock
 * routes `POST /model/<id>/converse` and `/converse-stream` to (the request
 * already authorised). It checks the body as Bedrock would refuse it (no
 * `stream` or `model` key, alternating roles starting with the user, tool
 * blocks only beside a toolConfig, cachePoints only on models that cache)
 * and answers by what was asked: a tool call while a tool is offered and no
 * result came back yet, Claude thinking (signed) or Nova reasoning when
 * asked for, "I see an image." for an image, cache counters in the usage.
 * `encodeEventStream` frames events as `application/vnd.amazon.eventstream`.
 */
import { frame } from './aws-event-frames.js';

export interface ConverseEvent {
  type: string;
  payload: Record<string, unknown>;
  /** `exception` for a stream exception (`:exception-type` is then `type`); `event` otherwise. */
  messageType?: 'event' | 'exception';
}

export type ConverseReply = { status: number; json: unknown; errorType?: string } | { status: 200; events: ConverseEvent[] };

const SIGNATURE = 'EqQBCkYIBRgCKkDbdrk';
const NOVA_REASONING = '[REDACTED]';

function validation(message: string): ConverseReply {
  return { status: 400, json: { message }, errorType: 'ValidationException' };
}

/** The answer Bedrock would give a Converse (or, `stream`, ConverseStream) request for `modelId`. */
export function handleConverse(body: unknown, stream: boolean, modelId = 'amazon.nova-pro-v1:0'): ConverseReply {
  const request = body as Record<string, any>;
  const problem = refusal(request, modelId);
  if (problem) return validation(problem);
  const messages: Array<{ role: string; content: Array<Record<string, any>> }> = request.messages;
  const last = messages.at(-1)!;
  const toolName: string | undefined = request.toolConfig?.tools?.find((tool: any) => tool.toolSpec)?.toolSpec.name;
  const answeredTool = last.content.some((block) => block.toolResult);
  const hasImage = messages.some((message) => message.content.some((block) => block.image));
  const extra = request.additionalModelRequestFields ?? {};
  const content: Array<Record<string, unknown>> = [];
  if (extra.thinking?.type === 'enabled') content.push({ reasoningContent: { reasoningText: { text: 'Thinking it over.', signature: SIGNATURE } } });
  else if (extra.reasoningConfig?.type === 'enabled') content.push({ reasoningContent: { reasoningText: { text: NOVA_REASONING } } });
  const callsTool = toolName !== undefined && !answeredTool;
  content.push(callsTool ? { toolUse: { toolUseId: 'tooluse_bdrk_01', name: toolName, input: { city: 'Paris' } } } : { text: hasImage ? 'I see an image.' : 'Hello from Bedrock.' });
  const cached = JSON.stringify(request).includes('cachePoint');
  const usage = { inputTokens: 12, outputTokens: 6, totalTokens: cached ? 28 : 18, ...(cached ? { cacheReadInputTokens: 8, cacheWriteInputTokens: 2 } : {}) };
  const stopReason = callsTool ? 'tool_use' : 'end_turn';
  if (!stream) return { status: 200, json: { output: { message: { role: 'assistant', content } }, stopReason, usage, metrics: { latencyMs: 120 } } };
  return { status: 200, events: streamEvents(content, stopReason, usage) };
}

function refusal(request: Record<string, any>, modelId: string): string | undefined {
  if (!request || typeof request !== 'object') return 'Malformed input request';
  for (const key of ['stream', 'model', 'max_tokens', 'anthropic_version']) if (key in request) return `extraneous key [${key}] is not permitted`;
  if (!Array.isArray(request.messages) || request.messages.length === 0) return 'A conversation must start with a user message.';
  let expected = 'user';
  for (const message of request.messages) {
    if (message.role !== expected) return 'A conversation must alternate between user and assistant roles.';
    if (!Array.isArray(message.content) || message.content.length === 0) return 'The content field in the Message object is empty.';
    expected = expected === 'user' ? 'assistant' : 'user';
  }
  const text = JSON.stringify(request);
  if ((text.includes('"toolUse"') || text.includes('"toolResult"')) && !request.toolConfig) return 'The toolConfig field must be defined when using toolUse and toolResult content blocks.';
  if (text.includes('cachePoint') && !/anthropic\.claude|amazon\.nova/.test(modelId)) return `You invoked an unsupported model or your request did not allow prompt caching.`;
  return undefined;
}

function streamEvents(content: Array<Record<string, any>>, stopReason: string, usage: Record<string, number>): ConverseEvent[] {
  const events: ConverseEvent[] = [{ type: 'messageStart', payload: { role: 'assistant', p: 'abcdefgh' } }];
  content.forEach((block, contentBlockIndex) => {
    if (block.reasoningContent) {
      const { text, signature } = block.reasoningContent.reasoningText;
      events.push({ type: 'contentBlockDelta', payload: { contentBlockIndex, delta: { reasoningContent: { text } } } });
      if (signature) events.push({ type: 'contentBlockDelta', payload: { contentBlockIndex, delta: { reasoningContent: { signature } } } });
    } else if (block.toolUse) {
      const { toolUseId, name, input } = block.toolUse;
      events.push({ type: 'contentBlockStart', payload: { contentBlockIndex, start: { toolUse: { toolUseId, name } } } });
      const json = JSON.stringify(input);
      events.push({ type: 'contentBlockDelta', payload: { contentBlockIndex, delta: { toolUse: { input: json.slice(0, 5) } } } });
      events.push({ type: 'contentBlockDelta', payload: { contentBlockIndex, delta: { toolUse: { input: json.slice(5) } } } });
    } else {
      events.push({ type: 'contentBlockDelta', payload: { contentBlockIndex, delta: { text: block.text.slice(0, 6) } } });
      events.push({ type: 'contentBlockDelta', payload: { contentBlockIndex, delta: { text: block.text.slice(6) }, p: 'abc' } });
    }
    events.push({ type: 'contentBlockStop', payload: { contentBlockIndex } });
  });
  events.push({ type: 'messageStop', payload: { stopReason } });
  events.push({ type: 'metadata', payload: { usage, metrics: { latencyMs: 120 } } });
  return events;
}

/** Events as AWS event-stream bytes, one message each. */
export function encodeEventStream(events: readonly ConverseEvent[]): Buffer {
  return Buffer.concat(events.map((event) => frame({ type: event.type, payload: event.payload, exception: event.messageType === 'exception' })));
}
