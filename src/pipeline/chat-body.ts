/**
 * One body of a chat family (Chat Completions, legacy Completions, Messages)
 * served onto an output, from a key and the client's JSON: what the family's
 * route and its batch line (chat-batch-line.ts) both call, so that a line and
 * a request cannot drift. What differs per family is named once in its
 * `ChatBodyFamily`: how a body is parsed, converted and rendered, and what a
 * same-dialect upstream gets.
 */
import type { ChatRequest } from '../core/chat.js';
import type { ClientKey } from '../http/auth.js';
import type { AppContext } from '../http/context.js';
import { chatCall, type CallOrigin, type ChatCallFields } from './call-basics.js';
import type { ChatOutput } from './chat-output.js';
import { serveChat } from './chat-pipeline.js';
import { chatServices } from './chat-services.js';
import type { ChatCodec } from './types.js';

export interface ChatBodyFamily<Parsed extends { model: string; stream?: boolean | null }> {
  parse(body: unknown): Parsed;
  toCore(parsed: Parsed): ChatRequest;
  codec(parsed: Parsed): ChatCodec;
  /** The body a same-dialect upstream gets, where it is not the client's body as it is. */
  passThroughRequest?(body: Record<string, unknown>, parsed: Parsed): ReturnType<NonNullable<ChatCallFields['passThroughRequest']>>;
  sessionHint?(body: Record<string, unknown>): ReturnType<NonNullable<ChatCallFields['sessionHint']>>;
}

export async function serveChatBody<Parsed extends { model: string; stream?: boolean | null }>(
  ctx: AppContext,
  family: ChatBodyFamily<Parsed>,
  origin: CallOrigin,
  key: ClientKey,
  body: unknown,
  rawBody: Buffer,
  output: ChatOutput,
  startedAt: number,
): Promise<void> {
  const parsed = family.parse(body);
  const fields = body as Record<string, unknown>;
  const { passThroughRequest, sessionHint } = family;
  await serveChat(
    chatServices(ctx),
    chatCall(origin, key, {
      model: parsed.model,
      stream: parsed.stream === true,
      rawBody,
      body: fields,
      toCore: () => family.toCore(parsed),
      passThroughRequest: passThroughRequest ? () => passThroughRequest(fields, parsed) : undefined,
      startedAt,
      sessionHint: sessionHint ? () => sessionHint(fields) : undefined,
    }),
    family.codec(parsed),
    output,
  );
}
