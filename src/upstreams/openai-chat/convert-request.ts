/**
 * ChatRequest → OpenAI chat-completions request body.
 *
 * Choices worth knowing:
 * - Thinking parts are dropped on the way up: chat completions has no field to
 *   send a previous turn's reasoning back.
 * - Tool results become `role: "tool"` messages placed right after the
 *   assistant turn (before the rest of the user turn, as the API requires);
 *   they carry text only, and `isError` has no field (the text says it).
 * - `max_completion_tokens` is sent; channel setting `maxTokensField: 'max_tokens'`
 *   serves older servers. `stream_options.include_usage` is sent with streams
 *   unless the channel sets `streamUsage: false`.
 * - top_k is not part of chat completions: ignored (a hint in the translation
 *   plan, see capabilities.ts), as are provider-run tools.
 */
import type {
  ChatMessage,
  ChatRequest,
  MediaPart,
  ResponseFormat,
  TextPart,
  ThinkingConfig,
  ToolChoice,
  ToolDefinition,
  ToolResultPart,
} from '../../core/chat.js';
import { invalidRequest, unsupportedFeature } from '../../core/errors.js';
import { toolsToSend } from '../plan.js';
import { openAiChatCapabilities } from './capabilities.js';

type Json = Record<string, unknown>;

export function toChatCompletionRequest(request: ChatRequest, upstreamModel: string, settings: Record<string, unknown> = {}): Json {
  if (request.features && Object.keys(request.features).length > 0) {
    const name = Object.keys(request.features)[0];
    throw unsupportedFeature(name, 'the openai-chat upstream honours no optional features');
  }

  const messages: Json[] = [];
  if (request.system) messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) appendMessage(messages, message);

  const body: Json = { model: upstreamModel, messages };
  if (request.maxTokens !== undefined) body[settings.maxTokensField === 'max_tokens' ? 'max_tokens' : 'max_completion_tokens'] = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stopSequences?.length) body.stop = request.stopSequences;
  if (request.seed !== undefined) body.seed = request.seed;
  if (request.presencePenalty !== undefined) body.presence_penalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined) body.frequency_penalty = request.frequencyPenalty;
  const tools = toolsToSend(request.tools, openAiChatCapabilities);
  if (tools.length > 0) {
    body.tools = tools.map(toTool);
    if (request.toolChoice) body.tool_choice = toToolChoice(request.toolChoice);
    const choice = request.toolChoice;
    if ((choice && 'disableParallel' in choice && choice.disableParallel) || request.parallelToolCalls === false)
      body.parallel_tool_calls = false;
  }
  if (request.responseFormat) {
    const format = toResponseFormat(request.responseFormat);
    if (format) body.response_format = format;
  }
  const effort = reasoningEffort(request.thinking);
  if (effort) body.reasoning_effort = effort;
  if (request.user) body.user = request.user;
  if (request.stream) {
    body.stream = true;
    if (settings.streamUsage !== false) body.stream_options = { include_usage: true };
  }
  return body;
}

function appendMessage(messages: Json[], message: ChatMessage): void {
  if (message.role === 'assistant') {
    const assistant = toAssistantMessage(message);
    if (assistant) messages.push(assistant);
    return;
  }
  const rest: Array<TextPart | MediaPart> = [];
  for (const part of message.content) {
    if (part.type === 'tool_result') messages.push(toToolMessage(part));
    else if (part.type === 'text' || part.type === 'media') rest.push(part);
    // A user turn carries no tool calls or thinking; anything else is ignored.
  }
  if (rest.length > 0) messages.push({ role: 'user', content: userContent(rest) });
}

function toAssistantMessage(message: ChatMessage): Json | undefined {
  let text = '';
  const toolCalls: Json[] = [];
  for (const part of message.content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'tool_call')
      toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: JSON.stringify(part.input) } });
    else if (part.type === 'media') throw unsupportedFeature('media in assistant turns', 'chat completions assistant messages carry text only');
  }
  if (text === '' && toolCalls.length === 0) return undefined;
  const result: Json = { role: 'assistant', content: text === '' ? null : text };
  if (toolCalls.length > 0) result.tool_calls = toolCalls;
  return result;
}

function toToolMessage(part: ToolResultPart): Json {
  const texts: string[] = [];
  for (const inner of part.content) {
    if (inner.type !== 'text') throw unsupportedFeature('media in tool results', 'chat completions tool messages carry text only');
    texts.push(inner.text);
  }
  return { role: 'tool', tool_call_id: part.callId, content: texts.join('\n') };
}

/** A lone text part is sent as a plain string: some compatible servers accept nothing else. */
function userContent(parts: Array<TextPart | MediaPart>): string | Json[] {
  if (parts.length === 1 && parts[0].type === 'text') return parts[0].text;
  return parts.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : mediaPart(part)));
}

const audioFormats: Record<string, string> = { 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/mpeg': 'mp3', 'audio/mp3': 'mp3' };

function mediaPart(part: MediaPart): Json {
  const { mediaType } = part;
  if (mediaType.startsWith('image/')) {
    const url = part.data !== undefined ? `data:${mediaType};base64,${part.data}` : part.url;
    if (url === undefined) throw invalidRequest(`a ${mediaType} part carries neither data nor a URL`);
    return { type: 'image_url', image_url: { url } };
  }
  if (audioFormats[mediaType] && part.data !== undefined)
    return { type: 'input_audio', input_audio: { data: part.data, format: audioFormats[mediaType] } };
  if (mediaType === 'application/pdf' && part.data !== undefined)
    return { type: 'file', file: { filename: part.filename ?? 'document.pdf', file_data: `data:${mediaType};base64,${part.data}` } };
  if (mediaType.startsWith('text/')) {
    const text = part.text ?? (part.data !== undefined ? Buffer.from(part.data, 'base64').toString('utf8') : undefined);
    if (text !== undefined) return { type: 'text', text };
  }
  throw unsupportedFeature(
    `media type ${mediaType}`,
    'chat completions accepts images, inline wav/mp3 audio, inline PDF files and text only',
  );
}

function toTool(tool: ToolDefinition): Json {
  if (tool.type === 'builtin')
    throw unsupportedFeature(`tool ${tool.kind}`, 'chat-completions upstreams run no builtin tools');
  const fn: Json = { name: tool.name, parameters: tool.parameters };
  if (tool.description) fn.description = tool.description;
  if (tool.strict !== undefined) fn.strict = tool.strict;
  return { type: 'function', function: fn };
}

function toToolChoice(choice: ToolChoice): string | Json {
  switch (choice.type) {
    case 'auto':
    case 'none':
    case 'required':
      return choice.type;
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
  }
}

function toResponseFormat(format: ResponseFormat): Json | undefined {
  if (format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  const schema: Json = { name: format.name ?? 'response', schema: format.schema };
  if (format.strict !== undefined) schema.strict = format.strict;
  if (format.description) schema.description = format.description;
  return { type: 'json_schema', json_schema: schema };
}

/** The client's effort word, else its budget bucketed like the anthropic adapter's effort budgets. */
function reasoningEffort(thinking: ThinkingConfig | undefined): string | undefined {
  if (!thinking?.enabled) return undefined;
  if (thinking.effort) return thinking.effort;
  if (thinking.budgetTokens === undefined) return undefined;
  if (thinking.budgetTokens <= 4096) return 'low';
  if (thinking.budgetTokens <= 16384) return 'medium';
  return 'high';
}
