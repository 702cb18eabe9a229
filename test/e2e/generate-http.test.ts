/**
 * Family D over plain HTTP, as the spec writes it: `?key=`, snake_case
 * bodies, `contents` as one object, the non-SSE streaming form (one JSON
 * array), the error table, and gateway-side limits in the same shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;

beforeAll(async () => {
  gw = await startGateway({
    config: {
      keys: [
        { name: 'main', key: 'AIza-main-http-key' },
        { name: 'slow', key: 'AIza-rpm-one-key', rpm: 1 },
        { name: 'broke', key: 'AIza-no-quota-key', quota: 0 },
        { name: 'narrow', key: 'AIza-narrow-key', models: ['only-this'] },
      ],
    },
  });
});
afterAll(async () => gw?.close());

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${gw.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

const hello = { contents: [{ role: 'user', parts: [{ text: 'Hello over HTTP' }] }] };

describe('routes and credentials', () => {
  it('accepts the key as ?key= on /v1beta, as the spec shows', async () => {
    const res = await post('/v1beta/models/sim-model:generateContent?key=AIza-main-http-key', hello);
    expect(res.status).toBe(200);
    expect(res.json().candidates[0].content.parts[0].text).toContain('Hello over HTTP');
  });

  it('accepts the x-goog-api-key header on /v1', async () => {
    const res = await post('/v1/models/sim-model:generateContent', hello, { 'x-goog-api-key': 'AIza-main-http-key' });
    expect(res.status).toBe(200);
  });

  it('accepts the model segment as models/{model}', async () => {
    const res = await post('/v1beta/models/models/sim-model:generateContent?key=AIza-main-http-key', hello);
    expect(res.status).toBe(200);
    expect(res.json().modelVersion).toBe('sim-model');
    const encoded = await post('/v1beta/models/models%2Fsim-model:generateContent?key=AIza-main-http-key', hello);
    expect(encoded.json().modelVersion).toBe('sim-model');
  });

  it('answers 401 UNAUTHENTICATED without a key or with a wrong one', async () => {
    for (const path of ['/v1beta/models/sim-model:generateContent', '/v1beta/models/sim-model:generateContent?key=wrong']) {
      const res = await post(path, hello);
      expect(res.status).toBe(401);
      expect(res.json()).toEqual({ error: { code: 401, message: expect.any(String), status: 'UNAUTHENTICATED' } });
    }
  });

  it('answers 404 NOT_FOUND for another method', async () => {
    const res = await post('/v1beta/models/sim-model:predictLongRunning?key=AIza-main-http-key', hello);
    expect(res.status).toBe(404);
    expect(res.json().error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
    expect(res.json().error.message).toContain('predictLongRunning');
  });
});

describe('request forms', () => {
  it('accepts a snake_case body with contents as a single object', async () => {
    const res = await post('/v1beta/models/sim-model:generateContent?key=AIza-main-http-key', {
      contents: { parts: [{ text: 'Use get_weather please' }] },
      system_instruction: { parts: [{ text: 'be brief' }] },
      tools: [{ function_declarations: [{ name: 'get_weather', parameters: { type: 'OBJECT', properties: { city_name: { type: 'STRING', max_length: 20 } }, required: ['city_name'] } }] }],
      tool_config: { function_calling_config: { mode: 'AUTO' } },
      safety_settings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      generation_config: { max_output_tokens: 200, stop_sequences: ['zzz'], response_mime_type: 'text/plain', thinking_config: { include_thoughts: false } },
    });
    expect(res.status).toBe(200);
    const call = res.json().candidates[0].content.parts.find((part: { functionCall?: unknown }) => part.functionCall).functionCall;
    expect(call.name).toBe('get_weather');
    // Property names inside schemas are the client's own: they are never renamed.
    expect(Object.keys(call.args)).toEqual(['city_name']);
  });

  it('accepts inline media and function responses in snake_case', async () => {
    const res = await post('/v1beta/models/sim-model:generateContent?key=AIza-main-http-key', {
      contents: [
        { role: 'user', parts: [{ text: 'What is in this picture?' }, { inline_data: { mime_type: 'image/png', data: 'iVBORw0KGgo=' } }] },
        { role: 'model', parts: [{ function_call: { name: 'look', args: { at: 'picture' } } }] },
        { role: 'function', parts: [{ function_response: { name: 'look', response: { result: 'a cat' } } }] },
      ],
      tools: [{ function_declarations: [{ name: 'look', parameters_json_schema: { type: 'object' } }] }],
    });
    expect(res.status).toBe(200);
    expect(res.json().candidates[0].content.parts[0].text).toContain('The tool returned: a cat');
  });

  it('streams as server-sent events with alt=sse: data lines only, no [DONE]', async () => {
    const res = await post('/v1beta/models/sim-model:streamGenerateContent?alt=sse&key=AIza-main-http-key', hello);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = res.text.split('\r\n\r\n').filter(Boolean);
    expect(events.length).toBeGreaterThan(3);
    for (const event of events) expect(event).toMatch(/^data: \{/);
    expect(res.text).not.toContain('event:');
    expect(res.text).not.toContain('[DONE]');
    const last = JSON.parse(events.at(-1)!.slice('data: '.length));
    expect(last.candidates[0].finishReason).toBe('STOP');
    expect(last.usageMetadata.totalTokenCount).toBeGreaterThan(0);
  });

  it('streams as one JSON array without alt=sse', async () => {
    const res = await post('/v1beta/models/sim-model:streamGenerateContent?key=AIza-main-http-key', hello);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const chunks = res.json() as Array<{ candidates: Array<{ content?: { parts: Array<{ text?: string }> }; finishReason?: string }> }>;
    expect(Array.isArray(chunks)).toBe(true);
    expect(chunks.length).toBeGreaterThan(3);
    const text = chunks.map((chunk) => chunk.candidates[0].content?.parts.map((part) => part.text).join('') ?? '').join('');
    expect(text).toContain('Hello over HTTP');
    expect(chunks.at(-1)!.candidates[0].finishReason).toBe('STOP');
  });
});

describe('validation', () => {
  const invalid: Array<[string, unknown, string]> = [
    ['an unknown field', { ...hello, generationConfig: { temprature: 1 } }, 'Unknown name "temprature"'],
    ['temperature above 2', { ...hello, generationConfig: { temperature: 2.5 } }, 'temperature'],
    ['six stop sequences', { ...hello, generationConfig: { stopSequences: ['a', 'b', 'c', 'd', 'e', 'f'] } }, 'at most 5'],
    ['a bad response MIME type', { ...hello, generationConfig: { responseMimeType: 'text/html' } }, 'response_mime_type'],
    ['a bad safety threshold', { ...hello, safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_SOME' }] }, 'BLOCK_SOME'],
    ['a PDF by file URI', { contents: [{ parts: [{ fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/a.pdf' } }] }] }, 'inline_data'],
    ['empty contents', { contents: [] }, 'contents'],
    ['a body that is not JSON', '{"contents": [', 'JSON'],
  ];
  it.each(invalid)('refuses %s with 400 INVALID_ARGUMENT', async (_name, body, fragment) => {
    const res = await post('/v1beta/models/sim-model:generateContent?key=AIza-main-http-key', body);
    expect(res.status).toBe(400);
    expect(res.json().error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(res.json().error.message).toContain(fragment);
  });

  it('refuses features the simulator cannot honour, naming them', async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...hello, generationConfig: { responseLogprobs: true, logprobs: 3 } }, 'logprobs'],
      [{ ...hello, generationConfig: { responseModalities: ['AUDIO'], speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } } } } }, 'responseModalities'],
      [{ ...hello, cachedContent: 'cachedContents/abc' }, 'cachedContent'],
      [{ ...hello, safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_LOW_AND_ABOVE' }] }, 'safetySettings'],
    ];
    for (const [body, feature] of cases) {
      const res = await post('/v1beta/models/sim-model:generateContent?key=AIza-main-http-key', body);
      expect(res.status).toBe(400);
      expect(res.json().error.status).toBe('INVALID_ARGUMENT');
      expect(res.json().error.message).toContain(feature);
    }
  });

  it('leaves out provider-run tools and sampling knobs the simulator has no use for, and says so', async () => {
    const res = await post('/v1beta/models/sim-model:generateContent?key=AIza-main-http-key', {
      ...hello,
      tools: [{ codeExecution: {} }, { googleSearch: {} }],
      generationConfig: { topK: 64 },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-switchyard-translation')).toBe('ignored=top_k,tool codeExecution,tool googleSearch');
  });
});

describe('gateway-side limits in the same table', () => {
  it('answers 429 RESOURCE_EXHAUSTED with retry-after past the key rate limit', async () => {
    expect((await post('/v1beta/models/sim-model:generateContent?key=AIza-rpm-one-key', hello)).status).toBe(200);
    const res = await post('/v1beta/models/sim-model:generateContent?key=AIza-rpm-one-key', hello);
    expect(res.status).toBe(429);
    expect(res.json().error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.json().error.details[0]['@type']).toBe('type.googleapis.com/google.rpc.RetryInfo');
  });

  it('answers 403 PERMISSION_DENIED for an exhausted quota and a model the key may not use', async () => {
    const broke = await post('/v1beta/models/sim-model:generateContent?key=AIza-no-quota-key', hello);
    expect(broke.status).toBe(403);
    expect(broke.json().error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED' });
    const narrow = await post('/v1beta/models/sim-model:generateContent?key=AIza-narrow-key', hello);
    expect(narrow.status).toBe(403);
    expect(narrow.json().error.status).toBe('PERMISSION_DENIED');
  });

  it('logs the request under the generate family', async () => {
    await post('/v1beta/models/logged-model:generateContent?key=AIza-main-http-key', hello);
    const logs = await gw.admin('GET', '/logs?model=logged-model');
    expect(logs.body.data[0]).toMatchObject({ family: 'generate', httpStatus: 200, estimated: false });
    expect(logs.body.data[0].outputTokens).toBeGreaterThan(0);
  });
});
