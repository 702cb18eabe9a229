/**
 * `POST /v1/images/generations` (JSON) and `POST /v1/images/edits`
 * (multipart: `image` or `image[]` files, an optional `mask`), and their
 * aliases without `/v1`, in the OpenAI dialect: Bearer key, OpenAI error
 * shape, OpenAI's answer. Served by `openai-chat` and `openai-responses`
 * channels whose server has OpenAI's image endpoints (`imagesEndpoint`, on
 * by default at OpenAI's address; the body passed as it is) and by the
 * simulator. Logged as family `image-generations`, billed per image
 * (`perImage`) and per token where the upstream reports tokens.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { exposedError } from '../../core/errors.js';
import { serveImageOperation, type ImageCodec } from '../../pipeline/image-operation.js';
import { fastifyOutput } from '../../pipeline/chat-output.js';
import { requestServices } from '../../pipeline/chat-services.js';
import type { AppContext } from '../../http/context.js';
import { bearerToken } from '../../http/credentials.js';
import type { ClientKey } from '../../http/auth.js';
import { useFamilyErrors } from '../../http/family-errors.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import type { ImageBody, ImageRequest } from '../../dialects/openai-images/wire.js';
import { encodeForm, readEditForm } from './multipart.js';
import { parseEditForm, parseGenerationBody } from './validate.js';
import { renderImages, type UrlExpiry } from './render.js';
import { noteExpiring, urlExpiryMs } from './expiry.js';

export const IMAGE_GENERATIONS_FAMILY = 'image-generations';

export async function registerImageGenerationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(multipart);
  useFamilyErrors(app, (error) => renderOpenAIError(error, 'chat-completions'));

  const expiry: UrlExpiry = { ms: urlExpiryMs(ctx.fileConfig), note: (key, expiresAt) => noteExpiring(ctx.store, key, expiresAt) };
  const codecFor = (request: FastifyRequest): ImageCodec => ({
    family: IMAGE_GENERATIONS_FAMILY,
    perImageUsd: (model) => ctx.prices.quote(model)?.price.perImage ?? 0,
    render: (response, asked) => renderImages(response, asked, ctx.tasks.media, ctx.settings.publicUrl ?? `${request.protocol}://${request.host}`, expiry),
    renderError: (error, requestId) => renderOpenAIError(exposedError(error, requestId), 'chat-completions'),
  });

  const serve = (request: FastifyRequest, reply: FastifyReply, startedAt: number, key: ClientKey, asked: ImageRequest, body: ImageBody) =>
    serveImageOperation(requestServices(ctx), { requestId: request.id, key, clientIp: request.ip, headers: request.headers, startedAt, request: asked, body }, codecFor(request), fastifyOutput(reply));

  const generations = async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const key = await ctx.auth.authenticate(bearerToken(request), request.ip);
    const asked = parseGenerationBody(request.body);
    const raw = request.rawBody ?? Buffer.alloc(0);
    const parsed = request.body as Record<string, unknown>;
    const body: ImageBody = { withModel: (model) => ({ contentType: 'application/json', bytes: parsed.model === model ? raw : Buffer.from(JSON.stringify({ ...parsed, model })) }) };
    await serve(request, reply, startedAt, key, asked, body);
  };

  const edits = async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const key = await ctx.auth.authenticate(bearerToken(request), request.ip);
    const form = await readEditForm(request, ctx.settings.maxBodyBytes);
    const asked = parseEditForm(form.fields, form.files);
    let encoded: { model: string; form: ReturnType<typeof encodeForm> } | undefined;
    // The form is written once per upstream model (failover to a channel that maps the model otherwise writes it again).
    const body: ImageBody = {
      withModel: (model) => {
        if (encoded?.model !== model) encoded = { model, form: encodeForm(form, model) };
        return { contentType: encoded.form.contentType, bytes: encoded.form.bytes };
      },
    };
    await serve(request, reply, startedAt, key, asked, body);
  };

  app.post('/v1/images/generations', generations);
  app.post('/images/generations', generations);
  app.post('/v1/images/edits', edits);
  app.post('/images/edits', edits);
}
