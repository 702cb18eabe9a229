/**
 * Gemini SSE (`streamGenerateContent?alt=sse`) → ChatEvents, chunk by chunk.
 * Each chunk is a whole GenerateContent response holding the new parts of the
 * first candidate. Consecutive text (or thought) parts continue one block; a
 * thought signature becomes its own signed thinking block before the part that
 * carried it (see convert-response.ts), or after the call when it came late
 * (on an empty text part or a call's closing piece: convert-contents.ts puts
 * it back on the turn's first call); a function call arrives whole, or, on
 * Vertex AI, as a named start, `partialArgs` pieces and an empty closing part.
 * `finish` is emitted when the stream ends; a stream that ends without a
 * finishReason was cut, and is reported as a failure.
 */
import type { CallSignal } from '../../../core/call-signal.js';
import type { ChatEvent, FinishReason, Usage } from '../../../core/chat.js';
import { GatewayError } from '../../../core/errors.js';
import { toUpstreamError } from '../../http.js';
import { readSse } from '../../sse.js';
import type { UpstreamLimits } from '../../../core/upstream-limits.js';
import { newCallId, newResponseId, partText, type GeminiReadOptions } from './convert-response.js';
import { geminiError } from './errors.js';
import { isPromptBlocked, mapFinishReason } from '../../../dialects/generate/finish-reason.js';
import { PartialArgs } from './partial-args.js';
import { hasCounts, usageFromGemini } from '../../../dialects/generate/usage.js';
import type { GeminiFunctionCall, GeminiPart, GeminiResponse } from '../../../dialects/generate/wire.js';

export async function* geminiSseToEvents(body: AsyncIterable<Uint8Array>, opts: GeminiReadOptions, signal?: CallSignal, limits?: UpstreamLimits): AsyncGenerator<ChatEvent> {
  const state = new GeminiStreamState(opts);
  const out: ChatEvent[] = [];
  try {
    for await (const sse of readSse(body, limits)) {
      state.handle(parseChunk(sse.data), out);
      for (let i = 0; i < out.length; i++) yield out[i];
      out.length = 0;
    }
  } catch (error) {
    throw toUpstreamError(error, signal);
  }
  state.end(out);
  yield* out;
}

function parseChunk(data: string): GeminiResponse {
  let chunk: GeminiResponse;
  try {
    chunk = JSON.parse(data) as GeminiResponse;
  } catch {
    throw new GatewayError('upstream_error', 'upstream sent a malformed stream chunk', { retryable: true });
  }
  if (chunk?.error) {
    const code = typeof chunk.error.code === 'number' && chunk.error.code >= 400 ? chunk.error.code : 500;
    throw geminiError(code, chunk.error, 'upstream reported an error mid-stream');
  }
  return chunk;
}

class GeminiStreamState {
  private started = false;
  private usage: Usage = usageFromGemini(undefined);
  private usageReported = false;
  private finishReason: string | undefined;
  private blocked = false;
  private hasCalls = false;
  private nextIndex = 0;
  private open: { kind: 'text' | 'thinking'; index: number; signed: boolean } | undefined;
  private call: { index: number; args: PartialArgs; signature?: string } | undefined;

  constructor(private readonly opts: GeminiReadOptions) {}

  handle(chunk: GeminiResponse, out: ChatEvent[]): void {
    if (hasCounts(chunk.usageMetadata)) {
      this.usage = usageFromGemini(chunk.usageMetadata);
      this.usageReported = true;
    }
    if (!this.started) {
      this.started = true;
      const id = chunk.responseId || newResponseId();
      out.push({ type: 'message_start', id, model: chunk.modelVersion ?? undefined, usage: { ...this.usage, outputTokens: 0 } });
    }
    const candidate = chunk.candidates?.[0];
    if (!candidate) {
      if (isPromptBlocked(chunk.promptFeedback?.blockReason)) this.blocked = true;
      return;
    }
    for (const part of candidate.content?.parts ?? []) this.part(part, out);
    if (candidate.finishReason) this.finishReason = candidate.finishReason;
  }

  end(out: ChatEvent[]): void {
    if (!this.finishReason && !this.blocked) throw new GatewayError('upstream_error', 'upstream stream ended before a finishReason', { retryable: true });
    if (!this.started) out.push({ type: 'message_start', id: newResponseId() });
    this.endCall(out);
    this.closeOpen(out);
    const reason: FinishReason = this.blocked && !this.finishReason ? 'content_filter' : mapFinishReason(this.finishReason, this.hasCalls);
    out.push(this.usageReported ? { type: 'finish', reason, stopSequence: null, usage: this.usage } : { type: 'finish', reason, stopSequence: null, usage: this.usage, unreported: true });
  }

  private part(part: GeminiPart, out: ChatEvent[]): void {
    if (part.functionCall && this.call) {
      this.continueCall(part.functionCall, part.thoughtSignature ?? undefined, out);
      return;
    }
    if (part.thought === true && typeof part.text === 'string') {
      this.thought(part.text, part.thoughtSignature ?? undefined, out);
      return;
    }
    // A signature on an empty part after a call (streams may send it late) is the call's: always kept.
    const late = this.hasCalls && part.text === '';
    if (part.thoughtSignature && (part.functionCall || late || this.opts.keepTextSignatures)) this.signature(part.thoughtSignature, out);
    const text = partText(part);
    if (text !== undefined) {
      if (text !== '') out.push({ type: 'text_delta', index: this.ensure('text', out), text });
    } else if (part.functionCall) this.startCall(part.functionCall, out);
  }

  private thought(text: string, signature: string | undefined, out: ChatEvent[]): void {
    const index = this.open?.kind === 'thinking' && !this.open.signed ? this.open.index : this.openBlock('thinking', out);
    if (text !== '') out.push({ type: 'thinking_delta', index, text });
    if (signature) {
      out.push({ type: 'signature_delta', index, signature });
      this.open!.signed = true;
    }
  }

  private signature(signature: string, out: ChatEvent[]): void {
    const index = this.openBlock('thinking', out);
    out.push({ type: 'signature_delta', index, signature });
    this.closeOpen(out);
  }

  private startCall(call: GeminiFunctionCall, out: ChatEvent[]): void {
    if (!call.name) return; // a closing or argument piece with no call open
    this.closeOpen(out);
    this.hasCalls = true;
    const index = this.nextIndex++;
    out.push({ type: 'block_start', index, block: { type: 'tool_call', id: call.id || newCallId(), name: call.name } });
    if (call.willContinue === true && !call.args) {
      this.call = { index, args: new PartialArgs() };
      if (call.partialArgs?.length) this.call.args.apply(call.partialArgs);
      return;
    }
    if (call.args && Object.keys(call.args).length > 0) out.push({ type: 'tool_input_delta', index, json: JSON.stringify(call.args) });
    out.push({ type: 'block_stop', index });
  }

  private continueCall(call: GeminiFunctionCall, signature: string | undefined, out: ChatEvent[]): void {
    if (call.name) {
      // A new call begins: the open one is complete.
      this.endCall(out);
      if (signature) this.signature(signature, out);
      this.startCall(call, out);
      return;
    }
    // A signature on an argument or closing piece: it follows the call once the call is complete.
    if (signature) this.call!.signature = signature;
    if (call.partialArgs?.length) {
      this.call!.args.apply(call.partialArgs);
      if (call.willContinue !== true && call.partialArgs.every((arg) => arg.willContinue !== true)) this.endCall(out);
      return;
    }
    if (call.willContinue !== true) this.endCall(out);
  }

  private endCall(out: ChatEvent[]): void {
    if (!this.call) return;
    const { index, args, signature } = this.call;
    this.call = undefined;
    if (Object.keys(args.value).length > 0) out.push({ type: 'tool_input_delta', index, json: JSON.stringify(args.value) });
    out.push({ type: 'block_stop', index });
    if (signature) this.signature(signature, out);
  }

  private ensure(kind: 'text', out: ChatEvent[]): number {
    if (this.open?.kind === kind) return this.open.index;
    return this.openBlock(kind, out);
  }

  private openBlock(kind: 'text' | 'thinking', out: ChatEvent[]): number {
    this.endCall(out);
    this.closeOpen(out);
    const index = this.nextIndex++;
    out.push({ type: 'block_start', index, block: { type: kind } });
    this.open = { kind, index, signed: false };
    return index;
  }

  private closeOpen(out: ChatEvent[]): void {
    if (!this.open) return;
    out.push({ type: 'block_stop', index: this.open.index });
    this.open = undefined;
  }
}
