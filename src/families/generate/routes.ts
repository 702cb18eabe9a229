/**
 * Family D routes: `POST /v1beta/models/{model}:generateContent` and
 * `:streamGenerateContent` (`alt=sse` for server-sent events, else a JSON
 * array of chunks), and the same under `/v1/models/...`, where the current
 * official client posts by default; `:countTokens`, `:embedContent` and
 * `:batchEmbedContents` on the same paths. The model segment may be `name` or
 * `models/name`. Credential: the `x-goog-api-key` header (what the official
 * clients send) or the `key` query parameter (the spec's form).
 */
import { withoutSealedSignatures } from './native-reasoning.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/errors.js';
import { chatCall } from '../../pipeline/call-basics.js';
import { serveChat } from '../../pipeline/chat-pipeline.js';
import { fastifyOutput } from '../../pipeline/chat-output.js';
import { chatServices } from '../../pipeline/chat-services.js';
import type { AppContext } from '../../http/context.js';
import { headerValue } from '../../http/credentials.js';
import { generateCodec, plainGenerateCodec } from './codec.js';
import { serveGenerateCountTokens } from './count-tokens.js';
import { serveGenerateEmbeddings } from './embed.js';
import { generateToCore } from './to-core.js';
import { promptMediaOf } from './prompt-media.js';
import { parseGenerateRequest } from './validate.js';
import { generateSessionHint } from './session-hint.js';
import { useFamilyErrors } from '../../http/family-errors.js';
import { modelNameProblem } from '../../core/model-name.js';

export type GenerateMethod = 'generateContent' | 'streamGenerateContent' | 'countTokens' | 'embedContent' | 'batchEmbedContents';

const methods = new Set<string>(['generateContent', 'streamGenerateContent', 'countTokens', 'embedContent', 'batchEmbedContents']);

/** `gemini-x:generateContent`, `models/gemini-x:generateContent` → model and method; 404 for anything else. */
export function parseModelPath(rest: string): { model: string; method: GenerateMethod } {
  const decoded = safeDecode(rest);
  const colon = decoded.lastIndexOf(':');
  const method = colon < 0 ? '' : decoded.slice(colon + 1);
  let model = colon < 0 ? decoded : decoded.slice(0, colon);
  if (model.startsWith('models/')) model = model.slice('models/'.length);
  if (!methods.has(method)) {
    const named = method ? `method "${method}" is not supported` : 'the path names no method';
    throw new GatewayError('not_found', `${named}; use models/{model}:generateContent, :streamGenerateContent, :countTokens, :embedContent or :batchEmbedContents`);
  }
  if (model === '' || model.includes('/')) throw new GatewayError('not_found', `model path "${decoded}" is not of the form models/{model}`);
  const problem = modelNameProblem(model);
  if (problem) throw new GatewayError('invalid_request', `model name ${problem}`, { param: 'model' });
  return { model, method: method as GenerateMethod };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function registerGenerateRoutes(app: FastifyInstance, ctx: AppContext): void {
  useFamilyErrors(app, (error, requestId) => plainGenerateCodec.renderError(error, requestId));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const { model, method } = parseModelPath((request.params as Record<string, string>)['*'] ?? '');
    const query = request.query as Record<string, string | string[] | undefined>;
    const secret = headerValue(request, 'x-goog-api-key') ?? firstValue(query.key);
    const authenticated = ctx.auth.authenticate(secret, request.ip);
    // A key checked from the cache is no promise: nothing to wait for.
    const key = authenticated instanceof Promise ? await authenticated : authenticated;
    if (method === 'countTokens') return serveGenerateCountTokens(ctx, request, reply, { model, key, startedAt });
    if (method === 'embedContent' || method === 'batchEmbedContents') return serveGenerateEmbeddings(ctx, request, reply, { model, key, startedAt, batch: method === 'batchEmbedContents' });
    const parsed = parseGenerateRequest(request.body);
    const stream = method === 'streamGenerateContent';
    const sse = stream && firstValue(query.alt) === 'sse';
    const codec = generateCodec({
      includeThoughts: parsed.generationConfig?.thinkingConfig?.includeThoughts === true,
      enumOutput: parsed.generationConfig?.responseMimeType === 'text/x.enum',
      promptMedia: promptMediaOf(parsed),
      sse,
    });
    await serveChat(
      chatServices(ctx),
      chatCall(request, key, {
        model,
        stream,
        rawBody: request.rawBody ?? Buffer.alloc(0),
        body: request.body as Record<string, unknown>,
        toCore: () => generateToCore(parsed, model, stream),
        passThroughMethod: passThroughMethod(stream, sse),
        passThroughRequest: () => withoutSealedSignatures(request.body as Record<string, unknown>, stream, passThroughMethod(stream, sse)),
        startedAt,
        sessionHint: () => generateSessionHint(request.body as Record<string, unknown>),
      }),
      codec,
      fastifyOutput(reply),
    );
  };

  app.post('/v1beta/models/*', handler);
  app.post('/v1/models/*', handler);
}

function passThroughMethod(stream: boolean, sse: boolean): string {
  return stream ? (sse ? 'streamGenerateContent?alt=sse' : 'streamGenerateContent') : 'generateContent';
}

function firstValue(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first === '' ? undefined : first;
}
