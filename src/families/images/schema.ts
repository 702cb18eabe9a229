/**
 * Request bodies of the image-task endpoints. Unknown fields are ignored (real
 * clients send vendor extras); known fields are checked and the first problem
 * is reported with its path, as a parameter error.
 */
import { z } from 'zod';
import { GatewayError } from '../../core/errors.js';
import { builtOnce } from '../../core/built-once.js';

const text = (max: number) => z.string().max(max, { error: `must be at most ${max} characters` });

/** Empty strings mean "not given", as clients of these APIs often send them. */
const optionalText = (max: number) => z.preprocess((value) => (value === '' || value === null ? undefined : value), text(max).optional());

export const accountFilterSchema = builtOnce(() =>
  z.object({
    channelId: optionalText(200),
    instanceId: optionalText(200),
    modes: z.array(z.enum(['RELAX', 'FAST', 'TURBO'])).optional(),
    remark: optionalText(500),
    remix: z.boolean().optional(),
    remixAutoConsidered: z.boolean().optional(),
  }),
);
export type AccountFilter = z.output<ReturnType<typeof accountFilterSchema>>;

const common = builtOnce(() => ({
  botType: z.preprocess((value) => (value === '' || value === null ? undefined : value), z.enum(['MID_GEN', 'NIJI_GEN']).default('MID_GEN')),
  accountFilter: z.preprocess((value) => (value === null ? undefined : value), accountFilterSchema().optional()),
  notifyHook: optionalText(2000),
  state: optionalText(255),
}));

const prompt = builtOnce(() => z.string().trim().min(1, { error: 'must not be empty' }).max(8192, { error: 'must be at most 8192 characters' }));
const image = builtOnce(() => z.string().min(1, { error: 'must not be empty' }));

export const imagineSchema = builtOnce(() =>
  z.object({
    ...common(),
    prompt: prompt(),
    base64Array: z.array(image()).max(5, { error: 'at most 5 images' }).optional(),
  }),
);

export const blendSchema = builtOnce(() =>
  z.object({
    ...common(),
    base64Array: z.array(image()).min(2, { error: 'blend takes 2 to 5 images' }).max(5, { error: 'blend takes 2 to 5 images' }),
    dimensions: z.preprocess((value) => (value === '' || value === null ? undefined : value), z.enum(['PORTRAIT', 'SQUARE', 'LANDSCAPE']).optional()),
  }),
);

export const describeSchema = builtOnce(() => z.object({ ...common(), base64: image() }));

export const shortenSchema = builtOnce(() => z.object({ ...common(), prompt: prompt() }));

export const faceSwapSchema = builtOnce(() =>
  z.object({
    sourceBase64: image(),
    targetBase64: image(),
    accountFilter: common().accountFilter,
    notifyHook: common().notifyHook,
    state: common().state,
  }),
);

export const actionSchema = builtOnce(() =>
  z.object({
    ...common(),
    taskId: z.string().min(1, { error: 'must not be empty' }),
    customId: z.string().min(1, { error: 'must not be empty' }).max(500),
    chooseSameChannel: z.boolean().optional(),
  }),
);

export const modalSchema = builtOnce(() =>
  z.object({
    taskId: z.string().min(1, { error: 'must not be empty' }),
    prompt: optionalText(8192),
    maskBase64: z.preprocess((value) => (value === '' || value === null ? undefined : value), image().optional()),
  }),
);

export const uploadSchema = builtOnce(() =>
  z.object({
    base64Array: z.array(image()).min(1, { error: 'at least one image' }).max(10, { error: 'at most 10 images' }),
    filter: z.preprocess((value) => (value === null ? undefined : value), z.object({ channelId: optionalText(200), instanceId: optionalText(200), remark: optionalText(500) }).optional()),
  }),
);

/** `ids` is required, as the spec marks it; an empty list answers an empty list. */
export const listSchema = builtOnce(() =>
  z.object({
    ids: z.array(z.string({ error: 'must be a string' }), { error: 'must be a list of task ids' }).max(1000, { error: 'at most 1000 ids' }),
  }),
);

/** Parses a body with a schema; the first problem becomes a parameter error naming the field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('invalid_request', 'request body must be a JSON object');
  }
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue.path.map(String).join('.');
  const missing = issue.code === 'invalid_type' && (issue as { input?: unknown }).input === undefined;
  const message = missing ? 'required' : issue.message;
  throw new GatewayError('invalid_request', path ? `${path}: ${message}` : message, path ? { param: path } : {});
}
