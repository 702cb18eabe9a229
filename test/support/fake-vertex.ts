/**
 * A loopback Vertex AI that checks credentials the way Google does: a token
 * endpoint that takes a JWT-bearer assertion only when it is signed with the
 * test service account's key (a throwaway RSA pair made per fake, never a real
 * key), names that account, this endpoint and the cloud-platform scope, and has
 * not expired; and model routes that take only a Bearer token it issued and
 * that has not expired (tokens can be made short-lived to prove a refresh).
 *
 * Both publishers' routes: Google's (`:generateContent`,
 * `:streamGenerateContent?alt=sse`, `:countTokens`, and `:predict` for its
 * embedding models), the OpenAI-compatible endpoint's
 * (`endpoints/openapi/chat/completions`, fake-vertex-openapi.ts) and Anthropic's
 * (`:rawPredict`, `:streamRawPredict`, `count-tokens:rawPredict`), which
 * refuse a body without `anthropic_version: "vertex-2023-10-16"` or with a
 * `model` (except the count, which needs one), or naming a beta outside the
 * fake's list ("Unexpected value(s) … for the `anthropic-beta` header"), as Vertex does. Answers are
 * built from the request: a tool call when tools are offered and no result
 * came back yet, thinking when asked for, cache counters in the usage
 * (Claude's in claude-script.ts).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { claudeAnswer } from './claude-script.js';
import { openApiAnswer, predictAnswer } from './fake-vertex-openapi.js';
import { jwtGrantRefusal } from './jwt-grant-verify.mjs';

export { CLOUD_PLATFORM } from './jwt-grant-verify.mjs';

export interface VertexRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** `openapi` for the OpenAI-compatible endpoint (`model` then the body's, `verb` `chat/completions`). */
  publisher: 'google' | 'anthropic' | 'openapi';
  model: string;
  verb: string;
  body: Record<string, any>;
}

export interface ScriptedReply {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

export interface FakeVertex {
  origin: string;
  tokenUri: string;
  project: string;
  location: string;
  /** A service-account JSON key whose private key the fake trusts and whose token_uri is the fake's. */
  serviceAccountKey(): string;
  /** A well-formed key for the same account signed with another private key (the fake refuses its assertions). */
  foreignServiceAccountKey(): string;
  /** Model requests, in order. */
  requests: VertexRequest[];
  /** Tokens issued so far. */
  readonly tokensIssued: number;
  /** Assertions refused so far. */
  readonly assertionsRefused: number;
  /** Seconds each issued token lives (default 3600). */
  tokenLifetimeSeconds: number;
  /** Issues a token as the token endpoint would (tests that call the fake directly). */
  issueToken(lifetimeSeconds: number): string;
  /** Answers the next model requests with these replies, in order, instead of the built answers. */
  script(...replies: ScriptedReply[]): void;
  close(): Promise<void>;
}

const CLIENT_EMAIL = 'switchyard-test@test-project.iam.gserviceaccount.com';

function pair(): { privatePem: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey };
}

export async function startFakeVertex(options: { project?: string; location?: string } = {}): Promise<FakeVertex> {
  const project = options.project ?? 'test-project';
  const location = options.location ?? 'us-east5';
  const trusted = pair();
  const foreign = pair();
  const tokens = new Map<string, number>();
  const scripted: ScriptedReply[] = [];
  let issued = 0;
  let refused = 0;
  let origin = '';

  const fake: FakeVertex = {
    origin: '',
    tokenUri: '',
    project,
    location,
    serviceAccountKey: () => keyJson(trusted.privatePem),
    foreignServiceAccountKey: () => keyJson(foreign.privatePem),
    requests: [],
    get tokensIssued() {
      return issued;
    },
    get assertionsRefused() {
      return refused;
    },
    tokenLifetimeSeconds: 3600,
    issueToken: (lifetimeSeconds) => issue(lifetimeSeconds),
    script: (...replies) => scripted.push(...replies),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  function keyJson(privatePem: string): string {
    return JSON.stringify({
      type: 'service_account',
      project_id: project,
      private_key_id: 'test-key-id',
      private_key: privatePem,
      client_email: CLIENT_EMAIL,
      client_id: '100000000000000000001',
      token_uri: fake.tokenUri,
    });
  }

  function issue(lifetimeSeconds: number): string {
    issued++;
    const token = `ya29.fake-${issued}-${Math.random().toString(36).slice(2)}`;
    tokens.set(token, Date.now() + lifetimeSeconds * 1000);
    return token;
  }

  /** Google's token endpoint: the JWT-bearer grant, the assertion checked as Google checks it (jwt-grant-verify.mjs). */
  function tokenAnswer(form: URLSearchParams): ScriptedReply {
    const refuse = (description: string): ScriptedReply => {
      refused++;
      return { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: 'invalid_grant', error_description: description }) };
    };
    const refusal = jwtGrantRefusal(form, { publicKey: trusted.publicKey, clientEmail: CLIENT_EMAIL, tokenUri: fake.tokenUri });
    if (refusal) return refuse(refusal);
    const lifetime = fake.tokenLifetimeSeconds;
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ access_token: issue(lifetime), expires_in: lifetime, token_type: 'Bearer' }) };
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const reply = answer(req.method ?? 'GET', req.url ?? '/', req.headers, text);
      res.writeHead(reply.status, reply.headers ?? { 'content-type': 'application/json' });
      res.end(reply.body);
    });
  });

  function answer(method: string, url: string, headers: IncomingHttpHeaders, text: string): ScriptedReply {
    if (url === '/token' && method === 'POST') return tokenAnswer(new URLSearchParams(text));
    const openApi = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/endpoints\/openapi\/chat\/completions$/.exec(url);
    const route = openApi
      ? [url, openApi[1], openApi[2], 'openapi', '', 'chat/completions']
      : /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):([A-Za-z]+)(\?alt=sse)?$/.exec(url);
    if (!route || method !== 'POST') return googleError(404, 'NOT_FOUND', `The requested URL ${url} was not found on this server.`);
    const bearer = /^Bearer (.+)$/.exec(String(headers.authorization ?? ''))?.[1];
    const expiresAt = bearer === undefined ? undefined : tokens.get(bearer);
    if (expiresAt === undefined || expiresAt <= Date.now())
      return googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
    const [, inProject, inLocation, publisher, model, verb, sse] = route as unknown as [string, string, string, VertexRequest['publisher'], string, string, string | undefined];
    if (inProject !== project) return googleError(403, 'PERMISSION_DENIED', `Permission denied on resource project ${inProject}.`);
    if (inLocation !== location) return googleError(404, 'NOT_FOUND', `Location ${inLocation} is not served here.`);
    let body: Record<string, any>;
    try {
      body = JSON.parse(text);
    } catch {
      return googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    }
    fake.requests.push({ method, url, headers, publisher, model: publisher === 'openapi' ? String(body.model) : decodeURIComponent(model), verb: `${verb}${sse ?? ''}`, body });
    const next = scripted.shift();
    if (next) return next;
    if (publisher === 'openapi') return openApiAnswer(body);
    if (publisher === 'google' && verb === 'predict') return predictAnswer(decodeURIComponent(model), body);
    return publisher === 'google'
      ? googleAnswer(decodeURIComponent(model), `${verb}${sse ?? ''}`, body)
      : anthropicAnswer(decodeURIComponent(model), verb, body, headers['anthropic-beta'] as string | undefined);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.origin = origin;
  fake.tokenUri = `${origin}/token`;
  return fake;
}

export function googleError(code: number, status: string, message: string, headers: Record<string, string> = {}): ScriptedReply {
  return { status: code, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ error: { code, message, status } }) };
}

const json = (body: unknown): ScriptedReply => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const sse = (events: unknown[], named = false): ScriptedReply => ({
  status: 200,
  headers: { 'content-type': 'text/event-stream' },
  body: events.map((event) => `${named ? `event: ${(event as { type: string }).type}\n` : ''}data: ${JSON.stringify(event)}\n\n`).join(''),
});

/** Whether the conversation offers tools and the last turn is not a tool's result (so the model calls one). */
function wantsGoogleTool(body: Record<string, any>): string | undefined {
  const name = body.tools?.[0]?.functionDeclarations?.[0]?.name;
  const last = body.contents?.at(-1)?.parts ?? [];
  return name && !last.some((part: Record<string, unknown>) => part.functionResponse) ? name : undefined;
}

function googleAnswer(model: string, verb: string, body: Record<string, any>): ScriptedReply {
  if (verb === 'countTokens') {
    if (!Array.isArray(body.contents)) return googleError(400, 'INVALID_ARGUMENT', 'contents is required.');
    return json({ totalTokens: 11, totalBillableCharacters: 40 });
  }
  if (verb !== 'generateContent' && verb !== 'streamGenerateContent?alt=sse') return googleError(404, 'NOT_FOUND', `Method ${verb} is not served here.`);
  if (!Array.isArray(body.contents) || body.contents.length === 0) return googleError(400, 'INVALID_ARGUMENT', 'contents is required.');
  const tool = wantsGoogleTool(body);
  const thinking = body.generationConfig?.thinkingConfig?.includeThoughts === true;
  const hasImage = body.contents.some((content: any) => content.parts?.some((part: any) => part.inlineData ?? part.inline_data));
  const text = hasImage ? 'I see an image.' : 'Hello from Gemini on Vertex.';
  const parts: Record<string, unknown>[] = [];
  if (thinking) parts.push({ text: 'Thinking it over.', thought: true });
  parts.push(tool ? { functionCall: { name: tool, args: { city: 'Paris' } }, thoughtSignature: 'c2lnbmF0dXJl' } : { text });
  const usageMetadata = {
    promptTokenCount: 12,
    candidatesTokenCount: 6,
    totalTokenCount: thinking ? 22 : 18,
    cachedContentTokenCount: 4,
    ...(thinking ? { thoughtsTokenCount: 4 } : {}),
    trafficType: 'ON_DEMAND',
  };
  const common = { modelVersion: model, createTime: new Date().toISOString(), responseId: 'vertex-response-1' };
  if (verb === 'generateContent') return json({ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', avgLogprobs: -0.1 }], usageMetadata, ...common });
  return sse([
    ...parts.map((part) => ({ candidates: [{ content: { role: 'model', parts: [part] } }], usageMetadata: { trafficType: 'ON_DEMAND' }, ...common })),
    { candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP' }], usageMetadata, ...common },
  ]);
}

function anthropicError(status: number, type: string, message: string): ScriptedReply {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'error', error: { type, message } }) };
}

/** The betas the fake takes for Claude (Vertex refuses others, naming them). */
export const FAKE_VERTEX_BETAS = ['context-1m-2025-08-07', 'context-management-2025-06-27', 'interleaved-thinking-2025-05-14', 'web-search-2025-03-05'];

function anthropicAnswer(model: string, verb: string, body: Record<string, any>, betaHeader: string | undefined): ScriptedReply {
  const refusedBetas = (betaHeader ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '' && !FAKE_VERTEX_BETAS.includes(name));
  if (refusedBetas.length > 0)
    return anthropicError(
      400,
      'invalid_request_error',
      `Unexpected value(s) ${refusedBetas.map((name) => `\`${name}\``).join(', ')} for the \`anthropic-beta\` header. Please consult our documentation at docs.anthropic.com or try again without the header.`,
    );
  if (body.anthropic_version !== 'vertex-2023-10-16') return anthropicError(400, 'invalid_request_error', 'anthropic_version: Input should be vertex-2023-10-16');
  if (model === 'count-tokens') {
    if (verb !== 'rawPredict' || typeof body.model !== 'string') return anthropicError(400, 'invalid_request_error', 'model: Field required');
    return json({ input_tokens: 14 });
  }
  if ('model' in body) return anthropicError(400, 'invalid_request_error', 'model: Extra inputs are not permitted');
  if (verb !== 'rawPredict' && verb !== 'streamRawPredict') return googleError(404, 'NOT_FOUND', `Method ${verb} is not served here.`);
  if ((verb === 'streamRawPredict') !== (body.stream === true)) return anthropicError(400, 'invalid_request_error', `${verb} takes stream: ${verb === 'streamRawPredict'}`);
  if (typeof body.max_tokens !== 'number' || !Array.isArray(body.messages)) return anthropicError(400, 'invalid_request_error', 'max_tokens and messages are required');
  const { message, events } = claudeAnswer(model, body, { greeting: 'Hello from Claude on Vertex.', idTag: 'vrtx' });
  if (verb === 'rawPredict') return json(message);
  return sse(events, true);
}
