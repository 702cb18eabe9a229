/**
 * Azure's content filter refusing a prompt: a 400 whose error code is
 * `content_filter` (Chat Completions) or whose message names the content
 * management policy (Responses). A Chat Completions client gets Azure's
 * answer as written, a Responses client a 400 with Azure's message (the
 * pass-through paths); a translated client
 * (Messages, content generation) gets its own family's refusal: an answer
 * with no content that finished as filtered (`stop_reason: refusal`,
 * `finishReason: SAFETY`). A completion the filter cut short finishes with
 * `content_filter`, which every family already renders as its refusal.
 */
import type { ChatEvent, ChatRequest, ChatResponse } from '../../core/chat.js';
import { emptyUsage } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import type { ChatResult, Prepared, UpstreamAdapter, UpstreamCall } from '../types.js';

/** Whether an upstream error is Azure's content filter refusing the prompt. */
export function isContentFilterRefusal(error: unknown): boolean {
  if (!(error instanceof GatewayError) || error.upstreamStatus !== 400) return false;
  return error.detail?.code === 'content_filter' || /content management policy|content_filter/i.test(error.message);
}

/** The refusal a translated client gets for a filtered prompt. */
export function contentFilterResult(request: ChatRequest, call: UpstreamCall): ChatResult {
  const response: ChatResponse = { id: `filtered-${call.requestId}`, model: call.upstreamModel, content: [], finishReason: 'content_filter', stopSequence: null, usage: emptyUsage() };
  if (!request.stream) return { stream: false, response };
  return { stream: true, events: refusalEvents(response) };
}

async function* refusalEvents(response: ChatResponse): AsyncGenerator<ChatEvent> {
  yield { type: 'message_start', id: response.id, model: response.model };
  yield { type: 'finish', reason: 'content_filter', stopSequence: null, usage: response.usage };
}

/** The adapter, its translated answers turned into a refusal when the content filter refuses the prompt. */
export function withContentFilterRefusal<S, P extends Prepared<unknown>>(adapter: UpstreamAdapter<S, P>): UpstreamAdapter<S, P> {
  const chat = adapter.chat;
  return {
    ...adapter,
    chat: (prepared, request, call) =>
      chat(prepared, request, call).catch((error: unknown) => {
        if (isContentFilterRefusal(error)) return contentFilterResult(request, call);
        throw error;
      }),
  };
}
