/**
 * The content-generation dialect's embeddings: `models/{m}:embedContent`
 * (one content → `{embedding:{values}}`) and `:batchEmbedContents` (one
 * request per content → `{embeddings:[{values}]}`), served by the channels
 * that compute embeddings (see pipeline/embeddings.ts). A content's text
 * parts are embedded as one text. A batch is one upstream request, so its
 * entries must share `taskType`, `title` and `outputDimensionality`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { EmbeddingRequest } from '../../core/embedding.js';
import { exposedError, GatewayError } from '../../core/errors.js';
import { countTokens } from '../../core/tokens.js';
import { serveEmbeddings } from '../../pipeline/embeddings.js';
import { fastifyOutput } from '../../pipeline/chat-output.js';
import { requestServices } from '../../pipeline/chat-services.js';
import type { ClientKey } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { renderGenerateError } from '../../dialects/generate/errors.js';
import { builtOnce } from '../../core/built-once.js';

const contentSchema = builtOnce(() => z.looseObject({ parts: z.array(z.looseObject({})).min(1), role: z.string().optional() }));
const embedSchema = builtOnce(() =>
  z.looseObject({
    model: z.string().optional(),
    content: contentSchema(),
    taskType: z.string().optional(),
    title: z.string().optional(),
    outputDimensionality: z.number().int().min(1).optional(),
  }),
);
const batchSchema = builtOnce(() => z.looseObject({ requests: z.array(embedSchema()).min(1).max(100) }));

type EmbedParams = z.output<ReturnType<typeof embedSchema>>;

export async function serveGenerateEmbeddings(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  route: { model: string; key: ClientKey; startedAt: number; batch: boolean },
): Promise<void> {
  const entries = route.batch ? parse(batchSchema(), request.body).requests : [parse(embedSchema(), request.body)];
  const internal = toInternal(route.model, entries);
  await serveEmbeddings(
    requestServices(ctx),
    {
      requestId: request.id,
      key: route.key,
      clientIp: request.ip,
      headers: request.headers,
      model: route.model,
      startedAt: route.startedAt,
      request: internal,
      countInput: () => internal.inputs.reduce((sum, text) => sum + countTokens(text), 0),
    },
    {
      family: route.batch ? 'generate.batchEmbedContents' : 'generate.embedContent',
      render: (response) => (route.batch ? { embeddings: response.vectors.map((values) => ({ values })) } : { embedding: { values: response.vectors[0] } }),
      renderError: (error, requestId) => renderGenerateError(exposedError(error, requestId)),
    },
    fastifyOutput(reply),
  );
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new GatewayError('invalid_request', `Invalid value at '${issue.path.join('.')}': ${issue.message}`);
}

function toInternal(model: string, entries: EmbedParams[]): EmbeddingRequest {
  const first = entries[0];
  entries.forEach((entry, i) => {
    for (const field of ['taskType', 'title', 'outputDimensionality'] as const)
      if (entry[field] !== first[field]) throw new GatewayError('invalid_request', `requests[${i}].${field} differs from requests[0].${field}; a batch sent through this gateway shares them`);
  });
  const inputs = entries.map((entry, i) => textOf(entry, i));
  const out: EmbeddingRequest = { model, inputs };
  if (first.taskType !== undefined) out.taskType = first.taskType;
  if (first.title !== undefined) out.title = first.title;
  if (first.outputDimensionality !== undefined) out.dimensions = first.outputDimensionality;
  return out;
}

function textOf(entry: EmbedParams, i: number): string {
  const texts = entry.content.parts.map((part, j) => {
    if (typeof part.text !== 'string') throw new GatewayError('invalid_request', `content.parts[${j}] of request ${i} is not text; only text parts can be embedded through this gateway`);
    return part.text;
  });
  return texts.join('');
}
