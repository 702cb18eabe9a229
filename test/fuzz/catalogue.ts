/**
 * Every route the gateway registers, with what the fuzz suite needs to attack
 * it: the error shape its family answers in, where its credential goes, a
 * valid base body, the query parameters it reads, and which body fields hold
 * media. catalogue.test.ts fails when a registered route is missing here (or
 * an entry names a route that no longer exists).
 */
import { existsSync } from 'node:fs';
import * as base from './bases.js';
import type { ErrorShape } from './shapes.js';

/** Counted separately in the summary. */
export type Family =
  | 'messages'
  | 'responses'
  | 'generate'
  | 'chat-completions'
  | 'completions'
  | 'models'
  | 'embeddings'
  | 'rerank'
  | 'moderations'
  | 'image-generations'
  | 'audio'
  | 'images'
  | 'videos'
  | 'batches'
  | 'admin'
  | 'health'
  | 'console';

/** Where the credential goes: each family's own header, the admin key, or none (public links, health). */
export type AuthStyle = 'messages' | 'bearer' | 'google' | 'admin' | 'none';

/** Ids the harness creates before fuzzing, so base requests address real records. */
export interface Fixtures {
  responseId: string;
  imageTaskId: string;
  imageCustomId: string;
  imageKey: string;
  videoId: string;
  videoKey: string;
  /** A `batch` file, an OpenAI batch of it and a Message Batch, each ended. */
  fileId: string;
  batchId: string;
  messageBatchId: string;
  keyId: string;
  channelId: string;
}

export interface RouteEntry {
  family: Family;
  shape: ErrorShape;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path with `{name}` placeholders filled from `params`. */
  path: string;
  /** The route as Fastify registered it, when it differs from `path` with `{x}` → `:x`. */
  registered?: string;
  params?: Record<string, (fixtures: Fixtures) => string>;
  /** Query parameters the handler reads, with base values ('' = absent from the base request). */
  query?: Record<string, string>;
  auth: AuthStyle;
  body?: (fixtures: Fixtures) => unknown;
  /** Dotted paths of body fields that hold base64 or data URLs. */
  media?: string[];
  /** The body goes as multipart/form-data (string fields), not JSON. */
  multipart?: boolean;
  /** Served by the same handler as another entry: random inputs only, no field-by-field sweep (which would repeat that entry's). */
  alias?: boolean;
  /** The status a fresh gateway answers the base request with (default 200). */
  baseStatus?: number;
}

const generate = (prefix: string, method: string, query: Record<string, string> = {}): RouteEntry => ({
  alias: prefix === '/v1',
  family: 'generate',
  shape: 'google',
  method: 'POST',
  path: `${prefix}/models/{model}:${method}`,
  registered: `${prefix}/models/*`,
  params: { model: () => 'fuzz-model' },
  query: { key: '', alt: '', ...query },
  auth: 'google',
  body: base.generateBody,
  media: base.GENERATE_MEDIA,
});

const generateEmbed = (prefix: string, method: string, body: () => unknown): RouteEntry => ({
  family: 'embeddings',
  shape: 'google',
  method: 'POST',
  path: `${prefix}/models/{model}:${method}`,
  registered: `${prefix}/models/*`,
  params: { model: () => 'fuzz-embed' },
  query: { key: '' },
  auth: 'google',
  body,
});

const image = (path: string, body: (fixtures: Fixtures) => unknown, baseStatus = 200): RouteEntry => ({
  family: 'images',
  shape: 'images',
  method: 'POST',
  path: `/ig${path}`,
  auth: 'bearer',
  body,
  baseStatus,
});

const admin = (method: RouteEntry['method'], path: string, extra: Partial<RouteEntry> = {}): RouteEntry => ({
  family: 'admin',
  shape: 'admin',
  method,
  path: `/admin${path}`,
  auth: 'admin',
  ...extra,
});

/** The console's pages exist once `npm run build` (which `npm ci` runs) has built them; before that its routes answer 404. */
const consoleStatus = existsSync('dist/console/index.html') ? 200 : 404;

const responseId = (fixtures: Fixtures) => fixtures.responseId;
const videoId = (fixtures: Fixtures) => fixtures.videoId;
const imageTaskId = (fixtures: Fixtures) => fixtures.imageTaskId;

export const CATALOGUE: RouteEntry[] = [
  { family: 'health', shape: 'admin', method: 'GET', path: '/healthz', auth: 'none' },
  { family: 'health', shape: 'admin', method: 'GET', path: '/readyz', auth: 'none' },
  { family: 'health', shape: 'admin', method: 'GET', path: '/metrics', auth: 'admin' },

  { family: 'console', shape: 'admin', method: 'GET', path: '/console', auth: 'none', baseStatus: consoleStatus },
  { family: 'console', shape: 'admin', method: 'GET', path: '/console/{file}', registered: '/console/*', params: { file: () => 'index.html' }, auth: 'none', baseStatus: consoleStatus },

  { family: 'messages', shape: 'messages', method: 'POST', path: '/v1/messages', auth: 'messages', body: base.messagesBody, media: base.MESSAGES_MEDIA },
  { family: 'messages', shape: 'messages', method: 'POST', path: '/messages', alias: true, auth: 'messages', body: base.messagesBody, media: base.MESSAGES_MEDIA },
  { family: 'messages', shape: 'messages', method: 'POST', path: '/v1/messages/count_tokens', auth: 'messages', body: base.messagesCountBody, media: base.MESSAGES_MEDIA },
  { family: 'messages', shape: 'messages', method: 'POST', path: '/messages/count_tokens', alias: true, auth: 'messages', body: base.messagesCountBody, media: base.MESSAGES_MEDIA },

  { family: 'responses', shape: 'openai', method: 'POST', path: '/v1/responses', auth: 'bearer', body: base.responsesBody, media: base.RESPONSES_MEDIA },
  // The Responses WebSocket's handshake route: without an upgrade (as the fuzzer sends it), always 426.
  { family: 'responses', shape: 'openai', method: 'GET', path: '/v1/responses', auth: 'bearer', baseStatus: 426 },
  { family: 'responses', shape: 'openai', method: 'POST', path: '/v1/responses/input_tokens', auth: 'bearer', body: base.responsesCountBody, media: base.RESPONSES_MEDIA },
  { family: 'responses', shape: 'openai', method: 'POST', path: '/v1/responses/compact', auth: 'bearer', body: base.responsesCountBody, media: base.RESPONSES_MEDIA },
  {
    family: 'responses',
    shape: 'openai',
    method: 'GET',
    path: '/v1/responses/{id}',
    params: { id: responseId },
    query: { include: 'reasoning.encrypted_content', 'include[]': '' },
    auth: 'bearer',
  },
  {
    family: 'responses',
    shape: 'openai',
    method: 'GET',
    path: '/v1/responses/{id}/input_items',
    params: { id: responseId },
    query: { limit: '5', order: 'asc', after: '', before: '', include: '' },
    auth: 'bearer',
  },
  { family: 'responses', shape: 'openai', method: 'DELETE', path: '/v1/responses/{id}', params: { id: responseId }, auth: 'bearer' },

  generate('/v1beta', 'generateContent'),
  generate('/v1beta', 'streamGenerateContent', { alt: 'sse' }),
  generate('/v1beta', 'countTokens'),
  generate('/v1', 'generateContent'),
  generate('/v1', 'streamGenerateContent'),
  generate('/v1', 'countTokens'),

  generateEmbed('/v1beta', 'embedContent', base.embedContentBody),
  generateEmbed('/v1beta', 'batchEmbedContents', base.batchEmbedContentsBody),

  { family: 'chat-completions', shape: 'openai', method: 'POST', path: '/v1/chat/completions', auth: 'bearer', body: base.chatCompletionsBody, media: base.CHAT_COMPLETIONS_MEDIA },
  { family: 'chat-completions', shape: 'openai', method: 'POST', path: '/chat/completions', alias: true, auth: 'bearer', body: base.chatCompletionsBody, media: base.CHAT_COMPLETIONS_MEDIA },
  { family: 'completions', shape: 'openai', method: 'POST', path: '/v1/completions', auth: 'bearer', body: base.completionsBody },
  { family: 'completions', shape: 'openai', method: 'POST', path: '/completions', alias: true, auth: 'bearer', body: base.completionsBody },
  { family: 'embeddings', shape: 'openai', method: 'POST', path: '/v1/embeddings', auth: 'bearer', body: base.embeddingsBody },
  { family: 'embeddings', shape: 'openai', method: 'POST', path: '/embeddings', alias: true, auth: 'bearer', body: base.embeddingsBody },
  { family: 'rerank', shape: 'openai', method: 'POST', path: '/v1/rerank', auth: 'bearer', body: base.rerankBody },
  { family: 'rerank', shape: 'openai', method: 'POST', path: '/v2/rerank', alias: true, auth: 'bearer', body: base.rerankBody },
  { family: 'rerank', shape: 'openai', method: 'POST', path: '/rerank', alias: true, auth: 'bearer', body: base.rerankBody },
  { family: 'moderations', shape: 'openai', method: 'POST', path: '/v1/moderations', auth: 'bearer', body: base.moderationsBody },
  { family: 'moderations', shape: 'openai', method: 'POST', path: '/moderations', alias: true, auth: 'bearer', body: base.moderationsBody },
  { family: 'image-generations', shape: 'openai', method: 'POST', path: '/v1/images/generations', auth: 'bearer', body: base.imageGenerationBody },
  { family: 'image-generations', shape: 'openai', method: 'POST', path: '/images/generations', alias: true, auth: 'bearer', body: base.imageGenerationBody },
  { family: 'image-generations', shape: 'openai', method: 'POST', path: '/v1/images/edits', auth: 'bearer', body: base.imageEditBody, multipart: true, baseStatus: 400 },
  { family: 'image-generations', shape: 'openai', method: 'POST', path: '/images/edits', alias: true, auth: 'bearer', body: base.imageEditBody, multipart: true, baseStatus: 400 },
  { family: 'audio', shape: 'openai', method: 'POST', path: '/v1/audio/speech', auth: 'bearer', body: base.speechBody },
  { family: 'audio', shape: 'openai', method: 'POST', path: '/audio/speech', alias: true, auth: 'bearer', body: base.speechBody },
  { family: 'audio', shape: 'openai', method: 'POST', path: '/v1/audio/transcriptions', auth: 'bearer', body: base.transcriptionBody, multipart: true, baseStatus: 400 },
  { family: 'audio', shape: 'openai', method: 'POST', path: '/audio/transcriptions', alias: true, auth: 'bearer', body: base.transcriptionBody, multipart: true, baseStatus: 400 },
  { family: 'audio', shape: 'openai', method: 'POST', path: '/v1/audio/translations', auth: 'bearer', body: base.transcriptionBody, multipart: true, baseStatus: 400 },
  { family: 'audio', shape: 'openai', method: 'POST', path: '/audio/translations', alias: true, auth: 'bearer', body: base.transcriptionBody, multipart: true, baseStatus: 400 },
  { family: 'models', shape: 'openai', method: 'GET', path: '/v1/models', auth: 'bearer' },
  { family: 'models', shape: 'openai', method: 'GET', path: '/models', alias: true, auth: 'bearer' },
  { family: 'models', shape: 'openai', method: 'GET', path: '/v1/models/{model}', registered: '/v1/models/*', params: { model: () => 'gpt-4o-mini' }, auth: 'bearer' },
  { family: 'models', shape: 'openai', method: 'GET', path: '/models/{model}', registered: '/models/*', alias: true, params: { model: () => 'gpt-4o-mini' }, auth: 'bearer' },
  { family: 'models', shape: 'google', method: 'GET', path: '/v1beta/models', query: { key: '', pageSize: '2', pageToken: '' }, auth: 'google' },
  { family: 'models', shape: 'google', method: 'GET', path: '/v1beta/models/{model}', registered: '/v1beta/models/*', params: { model: () => 'gemini-2.5-flash' }, query: { key: '' }, auth: 'google' },

  image('/submit/imagine', base.imagineBody),
  image('/submit/blend', base.blendBody),
  image('/submit/describe', base.describeBody),
  image('/submit/shorten', base.shortenBody),
  image('/submit/action', (fixtures) => ({ taskId: fixtures.imageTaskId, customId: fixtures.imageCustomId, chooseSameChannel: true, state: 'fuzz' })),
  // The fixture task is finished, not waiting in MODAL: the base request is a well-formed 400.
  image('/submit/modal', (fixtures) => ({ taskId: fixtures.imageTaskId, prompt: 'zoom out', maskBase64: base.PNG_DATA_URL }), 400),
  image('/submit/upload-discord-images', base.uploadBody),
  image('/face/swap', base.faceSwapBody),
  image('/insight-face/swap', base.faceSwapBody),
  image('/task/list-by-condition', (fixtures) => ({ ids: [fixtures.imageTaskId] })),
  image('/task/list-by-ids', (fixtures) => ({ ids: [fixtures.imageTaskId] })),
  { family: 'images', shape: 'images', method: 'GET', path: '/ig/task/{id}/fetch', params: { id: imageTaskId }, auth: 'bearer' },
  { family: 'images', shape: 'images', method: 'GET', path: '/ig/task/{id}/image-seed', params: { id: imageTaskId }, auth: 'bearer' },
  { family: 'images', shape: 'images', method: 'GET', path: '/ig/image/{key}', params: { key: (fixtures) => fixtures.imageKey }, auth: 'none' },

  { family: 'videos', shape: 'videos', method: 'POST', path: '/v1/videos', auth: 'bearer', body: base.videoBody, media: [], baseStatus: 201 },
  { family: 'videos', shape: 'videos', method: 'POST', path: '/v1/videos', auth: 'bearer', body: base.videoBody, multipart: true, baseStatus: 201 },
  { family: 'videos', shape: 'videos', method: 'GET', path: '/v1/videos', query: { limit: '5', order: 'desc', after: '' }, auth: 'bearer' },
  { family: 'videos', shape: 'videos', method: 'GET', path: '/v1/videos/{id}', params: { id: videoId }, auth: 'bearer' },
  { family: 'videos', shape: 'videos', method: 'POST', path: '/v1/videos/{id}/remix', params: { id: videoId }, auth: 'bearer', body: base.remixBody, baseStatus: 201 },
  { family: 'videos', shape: 'videos', method: 'POST', path: '/v1/videos/{id}/remix', params: { id: videoId }, auth: 'bearer', body: base.remixBody, multipart: true, baseStatus: 201 },
  { family: 'videos', shape: 'videos', method: 'GET', path: '/v1/videos/{id}/content', params: { id: videoId }, query: { variant: 'video' }, auth: 'bearer' },
  { family: 'videos', shape: 'videos', method: 'GET', path: '/v1/videos/files/{key}', params: { key: (fixtures) => fixtures.videoKey }, auth: 'none' },
  { family: 'videos', shape: 'generations', method: 'POST', path: '/v1/video/generations', auth: 'bearer', body: base.generationBody, baseStatus: 201 },
  { family: 'videos', shape: 'generations', method: 'GET', path: '/v1/video/generations/{id}', params: { id: videoId }, auth: 'bearer' },
  { family: 'videos', shape: 'videos', method: 'DELETE', path: '/v1/videos/{id}', params: { id: videoId }, auth: 'bearer' },

  { family: 'batches', shape: 'openai', method: 'POST', path: '/v1/files', auth: 'bearer', body: () => ({ purpose: 'batch' }), multipart: true, baseStatus: 400 },
  { family: 'batches', shape: 'openai', method: 'GET', path: '/v1/files', query: { purpose: '', limit: '5', order: 'desc', after: '' }, auth: 'bearer' },
  { family: 'batches', shape: 'openai', method: 'GET', path: '/v1/files/{id}', params: { id: (fixtures) => fixtures.fileId }, auth: 'bearer' },
  { family: 'batches', shape: 'openai', method: 'GET', path: '/v1/files/{id}/content', params: { id: (fixtures) => fixtures.fileId }, auth: 'bearer' },
  { family: 'batches', shape: 'openai', method: 'DELETE', path: '/v1/files/{id}', params: { id: () => 'file-unknown' }, auth: 'bearer', baseStatus: 404 },
  { family: 'batches', shape: 'openai', method: 'POST', path: '/v1/batches', auth: 'bearer', body: base.batchBody },
  { family: 'batches', shape: 'openai', method: 'GET', path: '/v1/batches', query: { after: '', limit: '5' }, auth: 'bearer' },
  { family: 'batches', shape: 'openai', method: 'GET', path: '/v1/batches/{id}', params: { id: (fixtures) => fixtures.batchId }, auth: 'bearer' },
  // The fixture batch has ended: cancelling it is a well-formed 409.
  { family: 'batches', shape: 'openai', method: 'POST', path: '/v1/batches/{id}/cancel', params: { id: (fixtures) => fixtures.batchId }, auth: 'bearer', baseStatus: 409 },
  { family: 'batches', shape: 'messages', method: 'POST', path: '/v1/messages/batches', auth: 'messages', body: base.messageBatchBody },
  { family: 'batches', shape: 'messages', method: 'GET', path: '/v1/messages/batches', query: { before_id: '', after_id: '', limit: '5' }, auth: 'messages' },
  { family: 'batches', shape: 'messages', method: 'GET', path: '/v1/messages/batches/{id}', params: { id: (fixtures) => fixtures.messageBatchId }, auth: 'messages' },
  { family: 'batches', shape: 'messages', method: 'POST', path: '/v1/messages/batches/{id}/cancel', params: { id: (fixtures) => fixtures.messageBatchId }, auth: 'messages' },
  { family: 'batches', shape: 'messages', method: 'GET', path: '/v1/messages/batches/{id}/results', params: { id: (fixtures) => fixtures.messageBatchId }, auth: 'messages' },
  { family: 'batches', shape: 'messages', method: 'DELETE', path: '/v1/messages/batches/{id}', params: { id: () => 'msgbatch_unknown' }, auth: 'messages', baseStatus: 404 },

  admin('GET', '/keys'),
  admin('POST', '/keys', { body: base.keyBody, baseStatus: 201 }),
  admin('GET', '/keys/{id}', { params: { id: (fixtures) => fixtures.keyId } }),
  admin('PATCH', '/keys/{id}', { params: { id: (fixtures) => fixtures.keyId }, body: () => ({ ...base.keyBody(), name: 'patched key' }) }),
  admin('DELETE', '/keys/{id}', { params: { id: (fixtures) => fixtures.keyId } }),
  admin('GET', '/auth/session', { auth: 'none', baseStatus: 401 }),
  admin('GET', '/auth/oidc/login', { auth: 'none', query: { return: '' }, baseStatus: 404 }),
  admin('GET', '/auth/oidc/callback', { auth: 'none', query: { state: '', code: '' }, baseStatus: 404 }),
  admin('POST', '/auth/logout', { auth: 'none', baseStatus: 204 }),
  admin('GET', '/teams'),
  admin('POST', '/teams', { body: () => ({ name: 'fuzz team', description: 'fuzzed' }), baseStatus: 201 }),
  admin('GET', '/teams/{id}', { params: { id: () => 'team_unknown' }, baseStatus: 404 }),
  admin('PATCH', '/teams/{id}', { params: { id: () => 'team_unknown' }, body: () => ({ description: 'patched' }), baseStatus: 404 }),
  admin('DELETE', '/teams/{id}', { params: { id: () => 'team_unknown' }, baseStatus: 404 }),
  admin('GET', '/teams/{id}/members', { params: { id: () => 'team_unknown' }, baseStatus: 404 }),
  admin('PUT', '/teams/{id}/members', { params: { id: () => 'team_unknown' }, body: () => ({ userId: 'user_unknown', role: 'member' }), baseStatus: 404 }),
  admin('DELETE', '/teams/{id}/members/{userId}', { params: { id: () => 'team_unknown', userId: () => 'user_unknown' }, baseStatus: 404 }),
  admin('GET', '/users'),
  admin('POST', '/users', { body: () => ({ email: 'fuzz@example.com', name: 'Fuzz' }), baseStatus: 201 }),
  admin('GET', '/users/{id}', { params: { id: () => 'user_unknown' }, baseStatus: 404 }),
  admin('PATCH', '/users/{id}', { params: { id: () => 'user_unknown' }, body: () => ({ status: 'disabled' }), baseStatus: 404 }),
  admin('DELETE', '/users/{id}', { params: { id: () => 'user_unknown' }, baseStatus: 404 }),
  admin('GET', '/channels'),
  admin('POST', '/channels', { body: base.channelBody, baseStatus: 201 }),
  admin('GET', '/channels/{id}', { params: { id: (fixtures) => fixtures.channelId } }),
  admin('PATCH', '/channels/{id}', { params: { id: (fixtures) => fixtures.channelId }, body: () => ({ ...base.channelBody(), name: 'patched channel' }) }),
  admin('POST', '/channels/{id}/health/reset', { params: { id: (fixtures) => fixtures.channelId } }),
  admin('DELETE', '/channels/{id}', { params: { id: (fixtures) => fixtures.channelId } }),
  admin('POST', '/channels/{id}/test', { params: { id: (fixtures) => fixtures.channelId }, body: () => ({ model: 'fuzz-model' }) }),
  admin('GET', '/channel-types'),
  admin('GET', '/logs', {
    query: { keyId: 'key_x', teamId: 'team_x', userId: 'user_x', model: 'fuzz-model', since: '0', until: '2030-01-01T00:00:00Z', family: 'messages', status: '2xx', limit: '10' },
  }),
  admin('GET', '/logs/{id}', { params: { id: () => 'log_unknown' }, baseStatus: 404 }),
  admin('GET', '/usage', { query: { keyId: 'key_x', teamId: 'team_x', userId: 'user_x', since: '0', until: String(4_000_000_000_000) } }),
  admin('GET', '/usage/series', { query: { by: 'model', step: '60000', model: 'fuzz-model' } }),
  admin('GET', '/tasks', { query: { family: 'images', status: 'SUCCESS', limit: '5' } }),
  admin('GET', '/tasks/{id}', { params: { id: imageTaskId } }),
  admin('GET', '/tasks/{id}/media/{index}', { params: { id: imageTaskId, index: () => '7' }, baseStatus: 404 }),
  admin('GET', '/prices'),
  admin('PUT', '/prices/{model}', { params: { model: () => 'fuzz-*' }, body: () => ({ input: 1, output: 2, tiers: [{ above: 1000, input: 3 }] }) }),
  admin('DELETE', '/prices/{model}', { params: { model: () => 'fuzz-unpriced' }, baseStatus: 404 }),
  admin('GET', '/prices/quote', { query: { model: 'fuzz-model', upstreamModel: 'fuzz-upstream' } }),
  admin('GET', '/prices/catalogue'),
  admin('GET', '/settings'),
  admin('GET', '/openapi.json'),
  admin('GET', '/audit', { query: { actor: 'admin-key', action: 'key.', targetKind: 'key', since: '0', until: '2030-01-01T00:00:00Z', limit: '10' } }),
  admin('GET', '/audit/{id}', { params: { id: () => 'aud_unknown' }, baseStatus: 404 }),
  admin('GET', '/budgets', { query: { scopeKind: 'team', scopeId: 'team_x' } }),
  admin('POST', '/budgets', { body: (fixtures) => ({ scopeKind: 'key', scopeId: fixtures.keyId, amountUsd: 5, period: 'daily', timeZone: 'UTC' }), baseStatus: 201 }),
  admin('GET', '/budgets/{id}', { params: { id: () => 'bud_unknown' }, baseStatus: 404 }),
  admin('PATCH', '/budgets/{id}', { params: { id: () => 'bud_unknown' }, body: () => ({ amountUsd: 6 }), baseStatus: 404 }),
  admin('DELETE', '/budgets/{id}', { params: { id: () => 'bud_unknown' }, baseStatus: 404 }),
  admin('GET', '/me'),
  // The admin key is no person: it has no tokens of its own.
  admin('GET', '/me/tokens', { baseStatus: 400 }),
  admin('POST', '/me/tokens', { body: () => ({ name: 'fuzz token', expiresInDays: 1 }), baseStatus: 400 }),
  admin('DELETE', '/me/tokens/{id}', { params: { id: () => 'pat_unknown' }, baseStatus: 400 }),
  admin('GET', '/users/{id}/tokens', { params: { id: () => 'user_unknown' }, baseStatus: 404 }),
  admin('DELETE', '/users/{id}/tokens/{tokenId}', { params: { id: () => 'user_unknown', tokenId: () => 'pat_unknown' }, baseStatus: 404 }),
];

/** A catalogue entry's label in reports. */
export function routeLabel(route: RouteEntry): string {
  return `${route.method} ${route.path}${route.multipart ? ' (multipart)' : ''}`;
}

/** The route as Fastify lists it. */
export function registeredPath(route: RouteEntry): string {
  return route.registered ?? route.path.replace(/\{(\w+)\}/g, ':$1');
}

export function routesOf(family: Family): RouteEntry[] {
  // Deleting the fixture record goes last, so the routes before it address a live one.
  const routes = CATALOGUE.filter((route) => route.family === family);
  return [...routes.filter((route) => route.method !== 'DELETE'), ...routes.filter((route) => route.method === 'DELETE')];
}
