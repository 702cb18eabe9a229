/**
 * Scripted fake of content generation: POST /v1beta/models/{m}:generateContent,
 * :streamGenerateContent (SSE with `alt=sse`, else a JSON array), :countTokens
 * (also under /v1/models/...). See common.mjs for the script.
 */
import { base62, decide, pieces, runStandalone, startFakeServer, textOf, tokensOf, writeJson, writeSse } from './common.mjs';

function conversation(body) {
  const turns = [];
  for (const content of body?.contents ?? []) {
    if (content.role === 'model') continue;
    const parts = content.parts ?? [];
    const responses = parts.filter((part) => part.functionResponse);
    if (responses.length) turns.push({ kind: 'tool-result', text: responses.map((part) => textOf(part.functionResponse.response ?? '')).join('\n') });
    else turns.push({ kind: 'user', text: parts.map((part) => part.text ?? '').join('\n') });
  }
  const tools = [];
  for (const tool of body?.tools ?? []) {
    for (const declaration of tool.functionDeclarations ?? []) {
      tools.push({ name: declaration.name, parameters: declaration.parametersJsonSchema ?? lowerSchema(declaration.parameters) });
    }
  }
  return { turns, tools };
}

/** Gemini's OpenAPI-style schema (type: "STRING") to JSON Schema type words, enough for picking arguments. */
function lowerSchema(schema) {
  if (!schema || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map(lowerSchema);
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && typeof value === 'string') out.type = value.toLowerCase();
    else if (key === 'properties' && value) out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, lowerSchema(v)]));
    else out[key] = value;
  }
  return out;
}

function usage(body, candidates, thoughts = 0) {
  const prompt = tokensOf(body);
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    totalTokenCount: prompt + candidates + thoughts,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
    ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
  };
}

export function start({ port } = {}) {
  return startFakeServer({
    name: 'gemini',
    port,
    async handle(req, res, { url, body }) {
      const match = /^\/(v1beta|v1)\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(url.pathname);
      if (req.method === 'GET' && /^\/(v1beta|v1)\/models$/.test(url.pathname)) {
        return writeJson(res, 200, { models: [{ name: 'models/gemini-fake', displayName: 'Gemini fake', supportedGenerationMethods: ['generateContent', 'countTokens'] }] });
      }
      if (req.method !== 'POST' || !match) {
        return writeJson(res, 404, { error: { code: 404, message: `fake gemini: no route ${req.method} ${url.pathname}`, status: 'NOT_FOUND' } });
      }
      const [, , model, method] = match;
      if (method === 'countTokens') return writeJson(res, 200, { totalTokens: tokensOf(body), promptTokensDetails: [{ modality: 'TEXT', tokenCount: tokensOf(body) }] });
      if (!Array.isArray(body?.contents)) return writeJson(res, 400, { error: { code: 400, message: '* GenerateContentRequest.contents: contents is not specified', status: 'INVALID_ARGUMENT' } });
      const decision = decide({ ...conversation(body), raw: body });
      const responseId = base62(22);
      const thoughtSignature = Buffer.from(`fake-signature-${responseId}`).toString('base64');
      const thinking = body.generationConfig?.thinkingConfig ? 24 : 0;
      const common = { modelVersion: model, responseId };
      if (decision.kind === 'tool') {
        const part = { functionCall: { name: decision.name, args: typeof decision.args === 'string' ? { input: decision.args } : decision.args }, thoughtSignature };
        const candidates = tokensOf(part.functionCall);
        const final = { candidates: [{ content: { parts: [part], role: 'model' }, finishReason: 'STOP', index: 0 }], usageMetadata: usage(body, candidates, thinking), ...common };
        if (method === 'generateContent') return writeJson(res, 200, final);
        const chunks = [
          { candidates: [{ content: { parts: [part], role: 'model' }, index: 0 }], usageMetadata: usage(body, candidates, thinking), ...common },
          { candidates: [{ content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'STOP', index: 0 }], usageMetadata: usage(body, candidates, thinking), ...common },
        ];
        return url.searchParams.get('alt') === 'sse'
          ? writeSse(
              res,
              chunks.map((data) => ({ data })),
            )
          : writeJson(res, 200, chunks);
      }
      const candidates = tokensOf(decision.text);
      if (method === 'generateContent') {
        return writeJson(res, 200, {
          candidates: [{ content: { parts: [{ text: decision.text, thoughtSignature }], role: 'model' }, finishReason: 'STOP', index: 0 }],
          usageMetadata: usage(body, candidates, thinking),
          ...common,
        });
      }
      const texts = pieces(decision.text, 8);
      const chunks = texts.map((text, i) => ({
        candidates: [
          {
            content: { parts: [i === 0 ? { text, thoughtSignature } : { text }], role: 'model' },
            ...(i === texts.length - 1 ? { finishReason: 'STOP' } : {}),
            index: 0,
          },
        ],
        usageMetadata: i === texts.length - 1 ? usage(body, candidates, thinking) : { promptTokenCount: tokensOf(body), totalTokenCount: tokensOf(body) },
        ...common,
      }));
      return url.searchParams.get('alt') === 'sse'
        ? writeSse(
            res,
            chunks.map((data) => ({ data })),
          )
        : writeJson(res, 200, chunks);
    },
  });
}

await runStandalone(import.meta.url, start);
