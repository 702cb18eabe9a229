/**
 * Fake upstreams that cache prompt prefixes per upstream API key (see
 * prompt-cache.mjs), one per dialect, on one loopback server:
 *
 *   POST /v1/messages                      Anthropic (breakpoints only)
 *   POST /v1/chat/completions              OpenAI chat (automatic, key + prompt_cache_key)
 *   POST /v1/responses                     OpenAI Responses (automatic, key + prompt_cache_key)
 *   POST /v1beta/models/<m>:generateContent, :streamGenerateContent?alt=sse   Gemini (implicit)
 *
 * Every request is recorded (which key, prompt, cached and written tokens),
 * attributed to the benchmark session whose marker its prompt carries. With
 * `toolEvery` n > 0, every n-th turn of a session also calls the first tool
 * of the request, so that the client's next turn carries a tool result.
 */
import http from 'node:http';
import { anthropicAnswer, chatAnswer, geminiAnswer, responsesAnswer } from './answers.mjs';
import { BreakpointCache, MAX_BREAKPOINTS, PrefixCache, tokensOf } from './prompt-cache.mjs';
import { anthropicBlocks, chatPrompt, geminiPrompt, responsesPrompt } from './prompt-blocks.mjs';

/** What a session's prompt carries so that the upstream can attribute its requests (see sessions.mjs). */
export const SESSION_MARKER = /cbs_[0-9a-f]{12}/;

const OPENAI_TTL_MS = 10 * 60_000; // in-memory retention: "5 to 10 minutes of inactivity"
const OPENAI_EXTENDED_TTL_MS = 24 * 60 * 60_000; // prompt_cache_retention: "24h"
const GEMINI_IMPLICIT_TTL_MS = 5 * 60_000;

function replyText(turn) {
  return `Step ${turn} done: I read the output above and the change looks right. Next I will run the tests and report what fails, if anything.`;
}

function bearer(headers) {
  const value = headers.authorization ?? '';
  return value.toLowerCase().startsWith('bearer ') ? value.slice(7) : undefined;
}

function anthropicError(message) {
  return { status: 400, json: { type: 'error', error: { type: 'invalid_request_error', message } } };
}

/** Anthropic rejects more than four breakpoints, and a 1-hour one after a 5-minute one. */
function breakpointProblem(blocks) {
  const ttls = blocks.flatMap((block) => (block.ttl ? [block.ttl] : []));
  if (ttls.length > MAX_BREAKPOINTS) return `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${ttls.length}.`;
  const firstShort = ttls.indexOf('5m');
  if (firstShort >= 0 && ttls.indexOf('1h', firstShort) > firstShort) {
    return "a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block.";
  }
  return undefined;
}

/** The first function tool a request declares, in its own dialect. */
const firstTool = {
  anthropic: (body) => body.tools?.find((tool) => typeof tool.name === 'string' && !tool.type?.startsWith('web_'))?.name,
  'openai-chat': (body) => body.tools?.find((tool) => tool.type === 'function')?.function?.name,
  'openai-responses': (body) => body.tools?.find((tool) => tool.type === 'function')?.name,
  gemini: (body) => body.tools?.find((tool) => tool.functionDeclarations?.length)?.functionDeclarations[0].name,
};

export function createCacheUpstream({ toolEvery = 0 } = {}) {
  const caches = {
    anthropic: new BreakpointCache(),
    openai: new PrefixCache(OPENAI_TTL_MS),
    gemini: new PrefixCache(GEMINI_IMPLICIT_TTL_MS),
  };
  const records = [];
  const turns = new Map();

  function record(upstream, body, rawBody, apiKey, usage, extra) {
    const marker = rawBody.match(SESSION_MARKER)?.[0];
    const turn = (turns.get(marker) ?? 0) + 1;
    turns.set(marker, turn);
    const name = toolEvery > 0 && turn % toolEvery === 0 ? firstTool[upstream](body) : undefined;
    const call = name && { id: `call_cache_${marker}_${turn}`, name, args: { cmd: `ls src/pkg${turn}` } };
    const outputChars = replyText(turn).length + (call ? JSON.stringify(call.args).length + name.length : 0);
    const counts = { write5mTokens: 0, write1hTokens: 0, ...usage, outputTokens: tokensOf(outputChars) };
    records.push({ marker, upstream, apiKey, turn, ...counts, ...extra, toolCall: Boolean(call) });
    return { text: replyText(turn), call, usage: counts };
  }

  function handle(path, headers, rawBody) {
    const body = JSON.parse(rawBody);
    if (path === '/v1/messages') {
      const apiKey = headers['x-api-key'] ?? bearer(headers);
      if (!apiKey) return { status: 401, json: { type: 'error', error: { type: 'authentication_error', message: 'no key' } } };
      const blocks = anthropicBlocks(body);
      const problem = breakpointProblem(blocks);
      if (problem) return anthropicError(problem);
      const { breakpoints, ...usage } = caches.anthropic.serve(apiKey, blocks);
      const { text, call, usage: full } = record('anthropic', body, rawBody, apiKey, usage, { breakpoints, stream: body.stream === true });
      return anthropicAnswer({ model: body.model, text, call, usage: full, stream: body.stream === true });
    }
    if (path === '/v1/chat/completions' || path === '/v1/responses') {
      const apiKey = bearer(headers);
      if (!apiKey) return { status: 401, json: { error: { message: 'no key', type: 'invalid_request_error', code: 'invalid_api_key' } } };
      const chat = path === '/v1/chat/completions';
      const namespace = body.prompt_cache_key === undefined ? apiKey : `${apiKey}\u0000${body.prompt_cache_key}`;
      const ttlMs = body.prompt_cache_retention === '24h' ? OPENAI_EXTENDED_TTL_MS : OPENAI_TTL_MS;
      const usage = caches.openai.serve(namespace, chat ? chatPrompt(body) : responsesPrompt(body), { ttlMs });
      const upstream = chat ? 'openai-chat' : 'openai-responses';
      const extra = { stream: body.stream === true, promptCacheKey: body.prompt_cache_key !== undefined };
      const { text, call, usage: full } = record(upstream, body, rawBody, apiKey, usage, extra);
      const answer = { model: body.model, text, call, usage: full, stream: body.stream === true, request: body };
      return chat ? chatAnswer(answer) : responsesAnswer(answer);
    }
    const gemini = path.match(/^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/);
    if (gemini) {
      const apiKey = headers['x-goog-api-key'];
      if (!apiKey) return { status: 403, json: { error: { code: 403, message: 'no key', status: 'PERMISSION_DENIED' } } };
      if (body.cachedContent) return { status: 400, json: { error: { code: 400, message: 'cachedContent is not served by this fake upstream', status: 'INVALID_ARGUMENT' } } };
      const stream = gemini[2] === 'streamGenerateContent';
      const usage = caches.gemini.serve(apiKey, geminiPrompt(body));
      // Gemini 3 refuses a replayed function call without its signature; the fake counts them instead.
      const unsignedCalls = (body.contents ?? [])
        .filter((content) => content.role === 'model')
        .flatMap((content) => content.parts ?? [])
        .filter((part) => part.functionCall && !part.thoughtSignature).length;
      const { text, call, usage: full } = record('gemini', body, rawBody, apiKey, usage, { stream, unsignedCalls });
      return geminiAnswer({ model: gemini[1], text, call, usage: full, stream });
    }
    return { status: 404, json: { error: { message: `no fake route for ${path}` } } };
  }

  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url, 'http://fake');
      let answer;
      try {
        const headers = { ...req.headers };
        if (!headers['x-goog-api-key'] && url.searchParams.get('key')) headers['x-goog-api-key'] = url.searchParams.get('key');
        answer = req.method === 'POST' ? handle(url.pathname, headers, Buffer.concat(chunks).toString('utf8')) : { status: 405, json: { error: { message: 'POST only' } } };
      } catch (error) {
        answer = { status: 400, json: { error: { message: `fake upstream could not read the request: ${error.message}` } } };
      }
      if (answer.events) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        for (const event of answer.events) res.write(event);
        res.end();
        return;
      }
      const payload = Buffer.from(JSON.stringify(answer.json));
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', 'content-length': payload.length });
      res.end(payload);
    });
  });
  server.keepAliveTimeout = 60_000;

  return {
    records,
    listen: () =>
      new Promise((resolve) => {
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`));
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
