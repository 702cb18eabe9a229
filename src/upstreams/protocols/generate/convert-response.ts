/**
 * Gemini answer → ChatResponse (first candidate; translation never asks for more).
 *
 * - `thought: true` parts become thinking parts (consecutive ones are one).
 * - A thought signature on another part becomes a thinking part with no text
 *   and that signature, placed just before the part: clients of other
 *   dialects keep thinking blocks and send them back, which is how a Gemini 3
 *   function call gets its signature back. Signatures on text parts are
 *   optional to return and are kept only when the client asked for thinking.
 * - Function calls without an id get one.
 * - Code execution parts become text; media output (which translation never
 *   requests) is named in a text part rather than dropped unseen.
 */
import { randomUUID } from 'node:crypto';
import type { ChatResponse } from '../../../core/chat.js';
import { GatewayError } from '../../../core/errors.js';
import { isPromptBlocked, mapFinishReason } from '../../../dialects/generate/finish-reason.js';
import { usageFromGemini } from '../../../dialects/generate/usage.js';
import type { GeminiPart, GeminiResponse } from '../../../dialects/generate/wire.js';

export interface GeminiReadOptions {
  /** Keep signatures found on text parts (the client asked for thinking). */
  keepTextSignatures: boolean;
}

type Content = ChatResponse['content'];

export const newCallId = () => `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
export const newResponseId = () => `gen_${randomUUID().replace(/-/g, '').slice(0, 24)}`;

export function fromGeminiResponse(json: GeminiResponse, fallbackModel: string, opts: GeminiReadOptions): ChatResponse {
  if (!json || typeof json !== 'object' || (!Array.isArray(json.candidates) && !json.promptFeedback))
    throw new GatewayError('upstream_error', 'upstream answer is not a GenerateContent response (no candidates)', { retryable: true });
  const candidate = json.candidates?.[0];
  const content: Content = [];
  for (const part of candidate?.content?.parts ?? []) appendPart(content, part, opts);
  const hasCalls = content.some((part) => part.type === 'tool_call');
  const blocked = !candidate && isPromptBlocked(json.promptFeedback?.blockReason);
  return {
    id: json.responseId || newResponseId(),
    model: json.modelVersion || fallbackModel,
    content,
    finishReason: blocked ? 'content_filter' : mapFinishReason(candidate?.finishReason, hasCalls),
    stopSequence: null,
    usage: usageFromGemini(json.usageMetadata),
    ...(json.usageMetadata ? {} : { usageUnreported: true as const }),
  };
}

function appendPart(content: Content, part: GeminiPart, opts: GeminiReadOptions): void {
  if (part.thought === true && typeof part.text === 'string') {
    const last = content[content.length - 1];
    if (last?.type === 'thinking' && last.signature === undefined) last.text += part.text;
    else content.push({ type: 'thinking', text: part.text });
    if (part.thoughtSignature) (content[content.length - 1] as { signature?: string }).signature = part.thoughtSignature;
    return;
  }
  // A signature on an empty part after a call is the call's (convert-contents.ts puts it back on the first call).
  const late = part.text === '' && content.some((earlier) => earlier.type === 'tool_call');
  const keepSignature = part.functionCall || late ? true : opts.keepTextSignatures;
  if (part.thoughtSignature && keepSignature) content.push({ type: 'thinking', text: '', signature: part.thoughtSignature });
  const text = partText(part);
  if (text !== undefined) {
    if (text !== '') content.push({ type: 'text', text });
  } else if (part.functionCall) {
    const { id, name, args } = part.functionCall;
    content.push({ type: 'tool_call', id: id || newCallId(), name: name ?? '', input: args ?? {} });
  }
}

/** The text form of a part that is not a thought or a function call; undefined for those. */
export function partText(part: GeminiPart): string | undefined {
  if (typeof part.text === 'string') return part.text;
  if (part.executableCode) {
    const language = part.executableCode.language === 'PYTHON' ? 'python' : '';
    return `\`\`\`${language}\n${part.executableCode.code ?? ''}\n\`\`\``;
  }
  if (part.codeExecutionResult) {
    return `Code execution result (${part.codeExecutionResult.outcome ?? 'OUTCOME_UNSPECIFIED'}):\n${part.codeExecutionResult.output ?? ''}`;
  }
  if (part.inlineData) return `[${part.inlineData.mimeType ?? 'media'} output omitted: this answer carries text only]`;
  return undefined;
}
