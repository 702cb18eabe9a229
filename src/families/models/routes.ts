/**
 * Model discovery in the caller's dialect:
 * - `GET /v1/models`, `GET /v1/models/{id}`: the OpenAI shape, or the
 *   Anthropic shape (paged with `limit`, `after_id`, `before_id`) when the
 *   request carries `anthropic-version`, as the Anthropic clients' does;
 * - `GET /v1beta/models`, `GET /v1beta/models/{model}`: Gemini's shape
 *   (paged with `pageSize`, `pageToken`).
 * Each lists only the models the key may use that some enabled channel
 * serves (catalogue.ts); errors leave in the caller's dialect.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { exposedError, GatewayError, invalidRequest, toGatewayError } from '../../core/errors.js';
import type { AppContext } from '../../http/context.js';
import { bearerToken, headerValue } from '../../http/credentials.js';
import { useFamilyErrors } from '../../http/family-errors.js';
import { renderGenerateError } from '../../dialects/generate/errors.js';
import { renderMessagesError } from '../../dialects/messages/errors.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import { modelNameProblem } from '../../core/model-name.js';
import { modelsForKey, type ListedModel } from './catalogue.js';
import { anthropicList, anthropicModel, geminiModel, openAiList, openAiModel } from './shapes.js';

type Query = Record<string, string | string[] | undefined>;

export function registerModelRoutes(app: FastifyInstance, ctx: AppContext): void {
  const isAnthropic = (request: FastifyRequest) => headerValue(request, 'anthropic-version') !== undefined;
  app.setErrorHandler((error, request, reply) => {
    const thrown = toGatewayError(error);
    if (thrown.kind === 'internal') request.log.error({ err: error, requestId: request.id }, 'unhandled error');
    const gatewayError = exposedError(thrown, request.id);
    const rendered = isAnthropic(request) ? renderMessagesError(exposedError(gatewayError, request.id), request.id) : renderOpenAIError(gatewayError);
    if (rendered.headers) reply.headers(rendered.headers);
    reply.code(rendered.status).type('application/json').send(JSON.stringify(rendered.body));
  });

  const visible = async (request: FastifyRequest): Promise<ListedModel[]> => {
    const key = await ctx.auth.authenticate(headerValue(request, 'x-api-key') ?? bearerToken(request), request.ip);
    return modelsForKey(ctx.channels.all(), key);
  };

  const list = async (request: FastifyRequest) => {
    const models = await visible(request);
    if (!isAnthropic(request)) return openAiList(models);
    const query = request.query as Query;
    return anthropicList(models, { limit: intParam(query, 'limit', 20, 1000), afterId: first(query.after_id), beforeId: first(query.before_id) });
  };

  const retrieve = async (request: FastifyRequest) => {
    const id = wellFormedModelId((request.params as Record<string, string>)['*']);
    const model = (await visible(request)).find((candidate) => candidate.id === id);
    if (!model) throw new GatewayError('not_found', `The model '${id}' does not exist or you do not have access to it.`, { param: 'model' });
    return isAnthropic(request) ? anthropicModel(model) : openAiModel(model);
  };

  app.get('/v1/models', list);
  app.get('/models', list);
  app.get('/v1/models/*', retrieve);
  app.get('/models/*', retrieve);
}

export function registerGeminiModelRoutes(app: FastifyInstance, ctx: AppContext): void {
  useFamilyErrors(app, (error, requestId) => renderGenerateError(exposedError(error, requestId)));

  const visible = async (request: FastifyRequest): Promise<ListedModel[]> => {
    const query = request.query as Query;
    const key = await ctx.auth.authenticate(headerValue(request, 'x-goog-api-key') ?? first(query.key) ?? bearerToken(request), request.ip);
    return modelsForKey(ctx.channels.all(), key);
  };

  app.get('/v1beta/models', async (request) => {
    const models = await visible(request);
    const query = request.query as Query;
    const size = intParam(query, 'pageSize', 50, 1000);
    const offset = first(query.pageToken) ? Number.parseInt(first(query.pageToken)!, 10) : 0;
    if (!Number.isSafeInteger(offset) || offset < 0) throw invalidRequest('pageToken is not a token this server gave out', 'pageToken');
    const page = models.slice(offset, offset + size).map((model) => geminiModel(model, ctx.contextWindows));
    return offset + size < models.length ? { models: page, nextPageToken: String(offset + size) } : { models: page };
  });

  app.get('/v1beta/models/*', async (request, reply) => {
    const id = (request.params as Record<string, string>)['*'].replace(/^models\//, '');
    // `models/{m}:generateContent` and the other methods are POST routes.
    if (id.includes(':')) {
      reply.header('allow', 'POST');
      throw invalidRequest(`GET is not allowed on ${request.url.split('?')[0].slice(0, 200)}; use POST`);
    }
    wellFormedModelId(id);
    const model = (await visible(request)).find((candidate) => candidate.id === id);
    if (!model) throw new GatewayError('not_found', `models/${id} is not found for API version v1beta, or is not supported for generateContent.`);
    return geminiModel(model, ctx.contextWindows);
  });
}

/** A model id from the path: a name that is not well-formed text is the client's mistake, not an unknown model. */
function wellFormedModelId(id: string): string {
  const problem = modelNameProblem(id);
  if (problem) throw invalidRequest(`model ${problem}`, 'model');
  return id;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function intParam(query: Query, name: string, fallback: number, max: number): number {
  const text = first(query[name]);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > max) throw invalidRequest(`${name} must be an integer from 1 to ${max}`, name);
  return value;
}
