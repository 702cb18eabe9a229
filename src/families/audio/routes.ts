/**
 * `POST /v1/audio/speech` (JSON), `POST /v1/audio/transcriptions` and
 * `POST /v1/audio/translations` (multipart: one `file`, up to 25 MB), and
 * their aliases without `/v1`, in the OpenAI dialect: Bearer key, OpenAI
 * error shape, OpenAI's answers. Served by `openai-chat` and
 * `openai-responses` channels whose server has OpenAI's audio endpoints
 * (`audioEndpoint`, on by default at OpenAI's address; the body passed as it
 * is, the answer's bytes streamed back as they come) and by the simulator.
 * Logged as families `audio-speech`, `audio-transcriptions` and
 * `audio-translations`; billed per second of audio (`perSecond`) and per
 * token (speech's input, or the tokens a server reports).
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { exposedError } from '../../core/errors.js';
import { serveAudioOperation, type AudioCodec } from '../../pipeline/audio-operation.js';
import { fastifyOutput } from '../../pipeline/chat-output.js';
import { requestServices } from '../../pipeline/chat-services.js';
import type { AppContext } from '../../http/context.js';
import { bearerToken } from '../../http/credentials.js';
import { useFamilyErrors } from '../../http/family-errors.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import { MAX_AUDIO_FILE_BYTES } from '../../dialects/openai-audio/schema-request.js';
import { wavSeconds } from '../../dialects/openai-audio/wav.js';
import type { AudioBody, AudioOperationName } from '../../dialects/openai-audio/wire.js';
import { encodeAudioForm, readAudioForm } from './multipart.js';
import { parseSpeechBody, parseTranscriptionForm } from './validate.js';
import { renderTranscript, renderTranscriptEvents } from './render.js';

export const AUDIO_FAMILIES: Readonly<Record<AudioOperationName, string>> = {
  speech: 'audio-speech',
  transcriptions: 'audio-transcriptions',
  translations: 'audio-translations',
};

export async function registerAudioRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(multipart);
  useFamilyErrors(app, (error) => renderOpenAIError(error, 'chat-completions'));

  const codecFor = (operation: AudioOperationName): AudioCodec => ({
    family: AUDIO_FAMILIES[operation],
    perSecondUsd: (model) => {
      const perSecond = ctx.prices.quote(model)?.price.perSecond;
      return typeof perSecond === 'number' ? perSecond : (perSecond?.['*'] ?? 0);
    },
    render: (response, asked) => {
      if (response.kind === 'speech') return { contentType: response.contentType, body: response.bytes };
      if (asked.operation !== 'speech' && asked.stream) return renderTranscriptEvents(response);
      return renderTranscript(response, asked.operation === 'speech' ? 'json' : asked.responseFormat, operation === 'translations' ? 'translations' : 'transcriptions');
    },
    renderError: (error, requestId) => renderOpenAIError(exposedError(error, requestId), 'chat-completions'),
  });
  const codecs = { speech: codecFor('speech'), transcriptions: codecFor('transcriptions'), translations: codecFor('translations') };

  const speech = async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const key = await ctx.auth.authenticate(bearerToken(request), request.ip);
    const asked = parseSpeechBody(request.body);
    const raw = request.rawBody ?? Buffer.alloc(0);
    const parsed = request.body as Record<string, unknown>;
    const body: AudioBody = { withModel: (model) => ({ contentType: 'application/json', bytes: parsed.model === model ? raw : Buffer.from(JSON.stringify({ ...parsed, model })) }) };
    const call = { requestId: request.id, key, clientIp: request.ip, headers: request.headers, startedAt, request: asked, body };
    await serveAudioOperation(requestServices(ctx), call, codecs.speech, fastifyOutput(reply));
  };

  const transcribing = (operation: 'transcriptions' | 'translations') => async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const key = await ctx.auth.authenticate(bearerToken(request), request.ip);
    const form = await readAudioForm(request, Math.min(MAX_AUDIO_FILE_BYTES, ctx.settings.maxBodyBytes));
    const asked = parseTranscriptionForm(operation, form);
    let encoded: { model: string; form: ReturnType<typeof encodeAudioForm> } | undefined;
    // The form is written once per upstream model (failover to a channel that maps the model otherwise writes it again).
    const body: AudioBody = {
      withModel: (model) => {
        if (encoded?.model !== model) encoded = { model, form: encodeAudioForm(form, model) };
        return { contentType: encoded.form.contentType, bytes: encoded.form.bytes };
      },
    };
    const call = { requestId: request.id, key, clientIp: request.ip, headers: request.headers, startedAt, request: asked, body, uploadSeconds: wavSeconds(asked.file.bytes) };
    await serveAudioOperation(requestServices(ctx), call, codecs[operation], fastifyOutput(reply));
  };

  app.post('/v1/audio/speech', speech);
  app.post('/audio/speech', speech);
  app.post('/v1/audio/transcriptions', transcribing('transcriptions'));
  app.post('/audio/transcriptions', transcribing('transcriptions'));
  app.post('/v1/audio/translations', transcribing('translations'));
  app.post('/audio/translations', transcribing('translations'));
}
