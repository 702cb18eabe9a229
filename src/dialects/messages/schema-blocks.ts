/**
 * Zod schemas of the Messages request content blocks (user and assistant turns,
 * tool results, the system array). Every block may carry `cache_control`.
 *
 * The blocks the gateway converts (text, image, document, tool_use,
 * tool_result, thinking, redacted_thinking) are validated; any other block
 * type the live API has or will have (`server_tool_use`, `*_tool_result`,
 * `search_result`, `tool_reference`…) is accepted as a loose object with a
 * `type` string: it goes upstream untouched on the pass-through path, and
 * to-core decides what translation does with it.
 */
import { z } from 'zod';
import { base64Problem, imageTypeProblem } from '../../core/media.js';
import { builtOnce } from '../../core/built-once.js';

const cacheControl = builtOnce(() => z.looseObject({ type: z.literal('ephemeral'), ttl: z.string().optional() }).nullish());

/** An error callback for a discriminated union: names the unknown `type` value the client sent. */
export function unknownTypeMessage(what: string, options: readonly string[]) {
  return (issue: { code?: string; input?: unknown }): string | undefined => {
    if (issue.code !== 'invalid_union') return undefined;
    const sent = (issue.input as { type?: unknown } | undefined)?.type;
    const expected = options.map((o) => `"${o}"`).join(', ');
    if (sent === undefined) return `${what} type is required; expected one of ${expected}`;
    return `unknown ${what} type ${JSON.stringify(sent)}; expected one of ${expected}`;
  };
}

export const imageMediaTypes = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

const httpUrl = builtOnce(() => z.string().regex(/^https?:\/\/\S+$/i, { error: 'must be an http or https URL' }));

export const textBlockSchema = builtOnce(() =>
  z.object({
    type: z.literal('text'),
    text: z.string().min(1, { error: 'text blocks must be non-empty' }),
    citations: z.array(z.looseObject({})).nullish(),
    cache_control: cacheControl(),
  }),
);

const imageSourceSchema = builtOnce(() =>
  z.discriminatedUnion(
    'type',
    [
      z
        .object({
          type: z.literal('base64'),
          media_type: z.enum(imageMediaTypes, {
            error: `must be one of ${imageMediaTypes.join(', ')}`,
          }),
          data: z.string().min(1, { error: 'image data must be non-empty base64' }),
        })
        .superRefine((source, ctx) => {
          const problem = base64Problem(source.data) ?? imageTypeProblem(source.data, source.media_type);
          if (problem) ctx.addIssue({ code: 'custom', path: ['data'], message: `image data ${problem}` });
        }),
      z.object({ type: z.literal('url'), url: httpUrl() }),
    ],
    { error: unknownTypeMessage('image source', ['base64', 'url']) },
  ),
);

export const imageBlockSchema = builtOnce(() =>
  z.object({
    type: z.literal('image'),
    source: imageSourceSchema(),
    cache_control: cacheControl(),
  }),
);

/** The blocks a content document may hold. */
const nestedBlockSchema = builtOnce(() =>
  z.discriminatedUnion('type', [textBlockSchema(), imageBlockSchema()], {
    error: unknownTypeMessage('content block', ['text', 'image']),
  }),
);

const documentSourceSchema = builtOnce(() =>
  z.discriminatedUnion(
    'type',
    [
      z.object({
        type: z.literal('base64'),
        media_type: z.literal('application/pdf', { error: 'base64 documents must have media_type "application/pdf"' }),
        data: z
          .string()
          .min(1, { error: 'document data must be non-empty base64' })
          .superRefine((data, ctx) => {
            const problem = base64Problem(data);
            if (problem) ctx.addIssue({ code: 'custom', message: `document data ${problem}` });
          }),
      }),
      z.object({
        type: z.literal('text'),
        media_type: z.literal('text/plain', { error: 'text documents must have media_type "text/plain"' }),
        data: z.string(),
      }),
      z.object({ type: z.literal('url'), url: httpUrl() }),
      z.object({
        type: z.literal('content'),
        content: z.union([z.string(), z.array(nestedBlockSchema())], {
          error: 'must be a string or an array of text and image blocks',
        }),
      }),
    ],
    { error: unknownTypeMessage('document source', ['base64', 'text', 'url', 'content']) },
  ),
);

export const documentBlockSchema = builtOnce(() =>
  z.object({
    type: z.literal('document'),
    source: documentSourceSchema(),
    title: z.string().nullish(),
    context: z.string().nullish(),
    citations: z.looseObject({ enabled: z.boolean().optional() }).nullish(),
    cache_control: cacheControl(),
  }),
);

export const toolUseBlockSchema = builtOnce(() =>
  z.object({
    type: z.literal('tool_use'),
    id: z.string().min(1, { error: 'tool_use id must be non-empty' }),
    name: z.string().min(1, { error: 'tool_use name must be non-empty' }),
    input: z.record(z.string(), z.unknown(), { error: 'must be an object' }),
    cache_control: cacheControl(),
  }),
);

const toolResultKnownSchema = builtOnce(() => z.discriminatedUnion('type', [textBlockSchema(), imageBlockSchema(), documentBlockSchema()]));
const toolResultBlockTypes = ['text', 'image', 'document'] as const;

/** A block of a type the gateway does not convert: only its `type` is checked. */
function otherBlockSchema(known: readonly string[]) {
  return z.looseObject({
    type: z.string().refine((type) => !known.includes(type), { abort: true }),
  });
}

/** Known blocks are validated; any other `type` passes as a loose object. */
function openBlockUnion<T extends z.ZodType>(known: T, types: readonly string[], what: string) {
  return z.union([known, otherBlockSchema(types)], {
    error: (issue) => {
      if (issue.code !== 'invalid_union') return undefined;
      if (typeof issue.input !== 'object' || issue.input === null || Array.isArray(issue.input)) return `each ${what} must be an object`;
      const sent = (issue.input as { type?: unknown }).type;
      if (sent === undefined) return `${what} type is required`;
      return `${what} type must be a string`;
    },
  });
}

const toolResultNestedSchema = builtOnce(() => openBlockUnion(toolResultKnownSchema(), toolResultBlockTypes, 'tool_result content block'));

export const toolResultBlockSchema = builtOnce(() =>
  z.object({
    type: z.literal('tool_result'),
    tool_use_id: z.string().min(1, { error: 'tool_use_id must be non-empty' }),
    content: z
      .union([z.string(), z.array(toolResultNestedSchema())], {
        error: 'must be a string or an array of content blocks',
      })
      .optional(),
    is_error: z.boolean().optional(),
    cache_control: cacheControl(),
  }),
);

export const thinkingBlockSchema = builtOnce(() =>
  z.object({
    type: z.literal('thinking'),
    thinking: z.string(),
    // The vendor requires it; other upstreams ignore it, so a missing one is tolerated here.
    signature: z.string().optional(),
    cache_control: cacheControl(),
  }),
);

export const redactedThinkingBlockSchema = builtOnce(() =>
  z.object({
    type: z.literal('redacted_thinking'),
    data: z.string().min(1, { error: 'redacted_thinking data must be non-empty' }),
    cache_control: cacheControl(),
  }),
);

export const contentBlockTypes = ['text', 'image', 'document', 'tool_use', 'tool_result', 'thinking', 'redacted_thinking'] as const;

const knownContentBlockSchema = builtOnce(() =>
  z.discriminatedUnion('type', [textBlockSchema(), imageBlockSchema(), documentBlockSchema(), toolUseBlockSchema(), toolResultBlockSchema(), thinkingBlockSchema(), redactedThinkingBlockSchema()]),
);

export const contentBlockSchema = builtOnce(() => openBlockUnion(knownContentBlockSchema(), contentBlockTypes, 'content block'));

export type TextBlock = z.output<ReturnType<typeof textBlockSchema>>;
export type ImageBlock = z.output<ReturnType<typeof imageBlockSchema>>;
export type DocumentBlock = z.output<ReturnType<typeof documentBlockSchema>>;
export type ToolUseBlock = z.output<ReturnType<typeof toolUseBlockSchema>>;
export type ToolResultBlock = z.output<ReturnType<typeof toolResultBlockSchema>>;
export type ThinkingBlock = z.output<ReturnType<typeof thinkingBlockSchema>>;
export type RedactedThinkingBlock = z.output<ReturnType<typeof redactedThinkingBlockSchema>>;
export type KnownContentBlock = z.output<ReturnType<typeof knownContentBlockSchema>>;
/** A block of a type the gateway does not convert (server tool records, search results, future types). */
export type OtherBlock = { type: string; [key: string]: unknown };
export type ContentBlock = KnownContentBlock | OtherBlock;
export type ToolResultContentBlock = z.output<ReturnType<typeof toolResultKnownSchema>> | OtherBlock;

const knownTypes: ReadonlySet<string> = new Set(contentBlockTypes);

export function isKnownBlock(block: ContentBlock): block is KnownContentBlock {
  return knownTypes.has(block.type);
}
