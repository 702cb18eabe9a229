/**
 * Family D counting: `POST /v1beta/models/{model}:countTokens` (and under
 * `/v1/models/`). The body is `{contents}` or `{generateContentRequest:
 * {model, contents, systemInstruction, tools, …}}` (`contents` is ignored when
 * both are sent, as the service does); the answer is `{"totalTokens": N,
 * "promptTokensDetails": [{modality, tokenCount}]}`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { serveCountTokens, type CountCodec } from '../../pipeline/count-tokens.js';
import { fastifyOutput } from '../../pipeline/chat-output.js';
import { requestServices } from '../../pipeline/chat-services.js';
import type { ClientKey } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { renderGenerateError } from '../../dialects/generate/errors.js';
import { invalidArgument } from './invalid.js';
import type { GenerateRequest } from '../../dialects/generate/schema.js';
import { generateToCore } from './to-core.js';
import { renderUsageMetadata, type PromptMedia } from '../../dialects/generate/usage.js';
import { promptMediaOf } from './prompt-media.js';
import { parseGenerateRequest } from './validate.js';

export function generateCountCodec(media: PromptMedia): CountCodec {
  return {
    family: 'generate.count_tokens',
    dialect: 'generate',
    renderCount: (inputTokens) => {
      const details = renderUsageMetadata({ inputTokens }, media).promptTokensDetails;
      return details ? { totalTokens: inputTokens, promptTokensDetails: details } : { totalTokens: inputTokens };
    },
    renderError: (error) => renderGenerateError(error),
  };
}

const innerKeys = ['generateContentRequest', 'generate_content_request'] as const;

/** The GenerateContent validation of what is counted: the inner request, or the body's `contents`. */
export function parseGenerateCountRequest(body: unknown): GenerateRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return parseGenerateRequest(body);
  const fields = body as Record<string, unknown>;
  const innerKey = innerKeys.find((key) => fields[key] != null);
  if (innerKey === undefined) return parseGenerateRequest(body);
  const inner = fields[innerKey];
  if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) {
    throw invalidArgument('generate_content_request', 'must be a GenerateContentRequest object');
  }
  return parseGenerateRequest(inner);
}

export async function serveGenerateCountTokens(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, routed: { model: string; key: ClientKey; startedAt: number }): Promise<void> {
  const parsed = parseGenerateCountRequest(request.body);
  const client = { rawBody: request.rawBody ?? Buffer.alloc(0), body: request.body as Record<string, unknown>, stream: false };
  await serveCountTokens(
    requestServices(ctx),
    {
      requestId: request.id,
      key: routed.key,
      clientIp: request.ip,
      headers: request.headers,
      model: routed.model,
      startedAt: routed.startedAt,
      nativeRequest: () => client,
      toCore: () => generateToCore(parsed, routed.model, false),
    },
    generateCountCodec(promptMediaOf(parsed)),
    fastifyOutput(reply),
  );
}
