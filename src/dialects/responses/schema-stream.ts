/**
 * Zod schemas of the Responses stream events (`event: <type>` and its
 * `data`, every one numbered by `sequence_number`): the lifecycle events
 * with the response object so far, items added and done, content parts and
 * their deltas, reasoning summaries, function and custom tool input, the
 * progress of hosted tools, and `error`. The family writes them; tests parse
 * recorded streams and the family's with them.
 */
import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';
import { openAIErrorObjectSchema } from '../openai/schema-error.js';
import { outputItemSchema, outputTextContentSchema, refusalContentSchema, responseObjectSchema, summaryTextSchema } from './schema-response.js';

const index = () => z.int().nonnegative();

/** The events that carry the whole response object. */
export const lifecycleEventTypes = ['response.created', 'response.in_progress', 'response.completed', 'response.incomplete', 'response.failed', 'response.queued'] as const;

/** Progress of a hosted tool's run, on the item its record is. */
export const hostedToolEventTypes = [
  'response.file_search_call.in_progress',
  'response.file_search_call.searching',
  'response.file_search_call.completed',
  'response.web_search_call.in_progress',
  'response.web_search_call.searching',
  'response.web_search_call.completed',
  'response.code_interpreter_call.in_progress',
  'response.code_interpreter_call.interpreting',
  'response.code_interpreter_call.completed',
  'response.image_generation_call.in_progress',
  'response.image_generation_call.generating',
  'response.image_generation_call.completed',
] as const;

function event<T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
  return z.object({ type: z.literal(type), sequence_number: index(), ...shape });
}

/** Where an event applies: the item, and the content part within it. */
const inItem = () => ({ item_id: z.string(), output_index: index() });
const inPart = () => ({ ...inItem(), content_index: index() });
const inSummary = () => ({ ...inItem(), summary_index: index() });
/** Padding the API adds to deltas so that their sizes tell nothing. */
const obfuscation = () => z.string().optional();

const contentPartSchema = () => z.discriminatedUnion('type', [outputTextContentSchema(), refusalContentSchema()]);

export const responsesStreamEventSchema = builtOnce(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.enum(lifecycleEventTypes), sequence_number: index(), response: responseObjectSchema() }),
    event('response.output_item.added', { output_index: index(), item: outputItemSchema() }),
    event('response.output_item.done', { output_index: index(), item: outputItemSchema() }),
    event('response.content_part.added', { ...inPart(), part: contentPartSchema() }),
    event('response.content_part.done', { ...inPart(), part: contentPartSchema() }),
    event('response.output_text.delta', { ...inPart(), delta: z.string(), logprobs: z.array(z.record(z.string(), z.unknown())).optional(), obfuscation: obfuscation() }),
    event('response.output_text.done', { ...inPart(), text: z.string(), logprobs: z.array(z.record(z.string(), z.unknown())).optional() }),
    event('response.output_text.annotation.added', { ...inPart(), annotation_index: index(), annotation: z.record(z.string(), z.unknown()) }),
    event('response.refusal.delta', { ...inPart(), delta: z.string(), obfuscation: obfuscation() }),
    event('response.refusal.done', { ...inPart(), refusal: z.string() }),
    event('response.function_call_arguments.delta', { ...inItem(), delta: z.string(), obfuscation: obfuscation() }),
    // The gateway repeats the function's name here.
    event('response.function_call_arguments.done', { ...inItem(), name: z.string().optional(), arguments: z.string() }),
    event('response.custom_tool_call_input.delta', { ...inItem(), delta: z.string(), obfuscation: obfuscation() }),
    event('response.custom_tool_call_input.done', { ...inItem(), input: z.string() }),
    event('response.reasoning_summary_part.added', { ...inSummary(), part: summaryTextSchema() }),
    event('response.reasoning_summary_part.done', { ...inSummary(), part: summaryTextSchema() }),
    event('response.reasoning_summary_text.delta', { ...inSummary(), delta: z.string(), obfuscation: obfuscation() }),
    event('response.reasoning_summary_text.done', { ...inSummary(), text: z.string() }),
    event('response.reasoning_text.delta', { ...inPart(), delta: z.string(), obfuscation: obfuscation() }),
    event('response.reasoning_text.done', { ...inPart(), text: z.string() }),
    z.object({ type: z.enum(hostedToolEventTypes), sequence_number: index(), ...inItem() }),
    // The API nests the error; the gateway also repeats its fields at the top level (the OpenAPI shape).
    event('error', {
      code: z.string().nullish(),
      message: z.string().optional(),
      param: z.string().nullish(),
      error: openAIErrorObjectSchema().optional(),
    }),
  ]),
);

export type ResponsesStreamEvent = z.output<ReturnType<typeof responsesStreamEventSchema>>;
export type ResponsesStreamEventType = ResponsesStreamEvent['type'];
/** The event of one `type` (members that cover several types included). */
export type ResponsesStreamEventOf<T extends ResponsesStreamEventType> = ResponsesStreamEvent extends infer E ? (E extends { type: infer U } ? (T extends U ? E : never) : never) : never;
