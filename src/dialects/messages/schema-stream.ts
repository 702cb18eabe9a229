/**
 * Zod schemas of the Messages stream events (`event: <type>` and its `data`):
 * `message_start` with the message object so far, the blocks and their
 * deltas, `message_delta` with the stop reason and the final usage,
 * `message_stop`, `ping`, and `error`. The family writes them and the
 * anthropic upstream reads them; tests parse recorded streams and the
 * family's with them.
 */
import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';
import { messagesErrorObjectSchema } from './schema-error.js';
import { answerBlockSchema, messageObjectSchema, messagesUsageSchema, stopReasons } from './schema-response.js';

const index = () => z.int().nonnegative();

export const messagesDeltaSchema = builtOnce(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('text_delta'), text: z.string() }),
    z.object({ type: z.literal('thinking_delta'), thinking: z.string() }),
    z.object({ type: z.literal('signature_delta'), signature: z.string() }),
    z.object({ type: z.literal('input_json_delta'), partial_json: z.string() }),
    z.object({ type: z.literal('citations_delta'), citation: z.unknown() }),
  ]),
);

export const messagesStreamEventSchema = builtOnce(() =>
  z.discriminatedUnion('type', [
    // The usage so far (the prompt's); official clients need it here.
    z.object({ type: z.literal('message_start'), message: messageObjectSchema().extend({ usage: messagesUsageSchema().optional() }) }),
    z.object({ type: z.literal('content_block_start'), index: index(), content_block: answerBlockSchema() }),
    z.object({ type: z.literal('content_block_delta'), index: index(), delta: messagesDeltaSchema() }),
    z.object({ type: z.literal('content_block_stop'), index: index() }),
    z.object({
      type: z.literal('message_delta'),
      delta: z.object({
        stop_reason: z.enum(stopReasons).nullish(),
        stop_sequence: z.string().nullish(),
        stop_details: z.record(z.string(), z.unknown()).nullish(),
        container: z.object({ id: z.string(), expires_at: z.string() }).nullish(),
        /** The gateway repeats the final usage inside the delta too, where some clients read it. */
        usage: messagesUsageSchema().optional(),
      }),
      /** The final counters. */
      usage: messagesUsageSchema().optional(),
      context_management: z.record(z.string(), z.unknown()).nullish(),
    }),
    z.object({ type: z.literal('message_stop') }),
    z.object({ type: z.literal('ping') }),
    z.object({ type: z.literal('error'), error: messagesErrorObjectSchema().partial().optional() }),
  ]),
);

export type MessagesDelta = z.output<ReturnType<typeof messagesDeltaSchema>>;
export type MessagesStreamEvent = z.output<ReturnType<typeof messagesStreamEventSchema>>;
