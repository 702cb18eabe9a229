/**
 * Scripted fake of Vertex AI serving Anthropic's models, credentials checked
 * as Google checks them:
 *
 * - `POST /token`, the service-account key's `token_uri`: the JWT-bearer
 *   grant checked as Google checks it (test/support/jwt-grant-verify.mjs,
 *   shared with the vitest fake), its RS256 assertion verified with the public half of a throwaway
 *   RSA pair made per start (never a real key), naming the account, this
 *   endpoint and the cloud-platform scope, not expired; answered with an
 *   access token that lives an hour;
 * - `POST /v1/projects/<p>/locations/<l>/publishers/anthropic/models/<model>:rawPredict`
 *   (JSON) and `:streamRawPredict` (SSE), only with a Bearer token issued
 *   here and still valid, for this project, location and model: the Messages
 *   body without `model` and with `anthropic_version: "vertex-2023-10-16"`
 *   (anything else is refused with a 400, as Vertex does);
 * - `POST …/publishers/anthropic/models/count-tokens:rawPredict`: a count, its
 *   body naming the model.
 *
 * The answers are the anthropic fake's (`messagesAnswer`, see common.mjs for
 * the script). The channel it needs (`fake.channel`): the service-account
 * JSON key as the channel's key, `project` and `location`, every model the
 * CLIs ask for mapped to the one Claude model it serves.
 */
import { generateKeyPairSync } from 'node:crypto';
import { jwtGrantRefusal } from '../../support/jwt-grant-verify.mjs';
import { messageBody, messageEvents, messagesAnswer } from './anthropic.mjs';
import { hex, runStandalone, startFakeServer, tokensOf, writeJson, writeSse } from './common.mjs';

export const VERTEX_PROJECT = 'switchyard-agents';
export const VERTEX_LOCATION = 'us-east5';
/** The one model served: a dated Claude model as Vertex names it. */
export const VERTEX_MODEL = 'claude-sonnet-4-5@20250929';
const ANTHROPIC_VERSION = 'vertex-2023-10-16';
const CLIENT_EMAIL = `agents@${VERTEX_PROJECT}.iam.gserviceaccount.com`;
const TOKEN_LIFETIME_SECONDS = 3600;
const MODEL_ROUTE = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+):(rawPredict|streamRawPredict)$/;

const googleError = (res, code, status, message) => writeJson(res, code, { error: { code, message, status } });
const anthropicError = (res, message) => writeJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message } });

/** Why Vertex would refuse this Anthropic body at this verb, or null. */
function bodyRefusal(body, model, verb) {
  if (!body || typeof body !== 'object') return 'Invalid JSON payload received.';
  if (body.anthropic_version !== ANTHROPIC_VERSION) return `anthropic_version: Input should be '${ANTHROPIC_VERSION}'`;
  if (model === 'count-tokens') return typeof body.model === 'string' ? null : 'model: Field required';
  if ('model' in body) return 'model: Extra inputs are not permitted';
  if ((verb === 'streamRawPredict') !== (body.stream === true)) return `${verb} takes stream: ${verb === 'streamRawPredict'}`;
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  if (!Array.isArray(body.messages)) return 'messages: Field required';
  return null;
}

export async function start({ port } = {}) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  /** Issued access token -> when it expires (ms). */
  const tokens = new Map();
  let tokenUri = '';

  const fake = await startFakeServer({
    name: 'vertex',
    port,
    async handle(req, res, { url, body }) {
      if (req.method === 'POST' && url.pathname === '/token') {
        const form = new URLSearchParams(typeof body === 'string' ? body : '');
        const refusal = jwtGrantRefusal(form, { publicKey, clientEmail: CLIENT_EMAIL, tokenUri });
        if (refusal) return writeJson(res, 400, { error: 'invalid_grant', error_description: refusal });
        const token = `ya29.fake-${hex(24)}`;
        tokens.set(token, Date.now() + TOKEN_LIFETIME_SECONDS * 1000);
        return writeJson(res, 200, { access_token: token, expires_in: TOKEN_LIFETIME_SECONDS, token_type: 'Bearer' });
      }
      const route = req.method === 'POST' ? MODEL_ROUTE.exec(url.pathname) : null;
      if (!route) return googleError(res, 404, 'NOT_FOUND', `The requested URL ${url.pathname} was not found on this server.`);
      const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
      if (!bearer || !(tokens.get(bearer) > Date.now())) {
        return googleError(res, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
      }
      const [, project, location, segment, verb] = route;
      const model = decodeURIComponent(segment);
      if (project !== VERTEX_PROJECT) return googleError(res, 403, 'PERMISSION_DENIED', `Permission denied on resource project ${project}.`);
      if (location !== VERTEX_LOCATION || (model !== 'count-tokens' && model !== VERTEX_MODEL)) {
        return googleError(res, 404, 'NOT_FOUND', `Publisher Model \`projects/${project}/locations/${location}/publishers/anthropic/models/${model}\` not found.`);
      }
      const refusal = bodyRefusal(body, model, verb);
      if (refusal) return anthropicError(res, refusal);
      if (model === 'count-tokens') return writeJson(res, 200, { input_tokens: tokensOf(body) });
      const answer = messagesAnswer(body, model);
      return body.stream ? writeSse(res, messageEvents(answer)) : writeJson(res, 200, messageBody(answer));
    },
  });
  tokenUri = `${fake.origin}/token`;
  const serviceAccountKey = JSON.stringify({
    type: 'service_account',
    project_id: VERTEX_PROJECT,
    private_key_id: hex(20),
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: CLIENT_EMAIL,
    client_id: '100000000000000000001',
    token_uri: tokenUri,
  });
  fake.channel = { apiKey: serviceAccountKey, settings: { project: VERTEX_PROJECT, location: VERTEX_LOCATION }, upstreamModel: VERTEX_MODEL };
  return fake;
}

await runStandalone(import.meta.url, start);
