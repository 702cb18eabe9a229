/**
 * A model name that is not well-formed text (a lone surrogate, a
 * bidirectional control such as U+202E, a control character, bytes that were
 * not UTF-8) is a 400 in the family's own shape naming the problem, in the
 * default simulator mode too: it is never "served". On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlace, ENGINES, type Place } from '../support/places.js';
import type { TestGateway } from '../support/gateway.js';

const KEY = 'sk-model-names-01';
const headers = { 'x-api-key': KEY, authorization: `Bearer ${KEY}`, 'x-goog-api-key': KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' };

/** A name as it appears inside a JSON string literal (escapes kept), or as raw bytes. */
const names: Array<{ what: string; json: string | Buffer; path: string; problem: RegExp; pathProblem?: RegExp }> = [
  // A surrogate cannot be percent-encoded as UTF-8: the path itself is refused.
  { what: 'a lone surrogate', json: 'm\\ud800x', path: 'm%ED%A0%80x', problem: /lone surrogate/, pathProblem: /bad percent-encoding/ },
  { what: 'a right-to-left override', json: 'gpt\\u202e4o', path: 'gpt%E2%80%AE4o', problem: /bidirectional text controls \(it holds U\+202E\)/ },
  { what: 'a right-to-left isolate', json: 'gpt\\u2067x', path: 'gpt%E2%81%A7x', problem: /bidirectional text controls \(it holds U\+2067\)/ },
  { what: 'a C1 control character', json: 'gpt\\u0085x', path: 'gpt%C2%85x', problem: /control characters/ },
  { what: 'bytes that are not UTF-8', json: Buffer.from([0x6d, 0xff, 0xfe, 0x78]), path: 'm%EF%BF%BDx', problem: /valid UTF-8/ },
];

function jsonBody(template: string, name: string | Buffer): Buffer {
  const [before, after] = template.split('@MODEL@');
  return Buffer.concat([Buffer.from(before), typeof name === 'string' ? Buffer.from(name) : name, Buffer.from(after)]);
}

const bodies: Array<{ family: string; path: string; template: string; shape: 'messages' | 'openai' }> = [
  { family: 'Messages', path: '/v1/messages', template: '{"model":"@MODEL@","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}', shape: 'messages' },
  { family: 'Messages token counting', path: '/v1/messages/count_tokens', template: '{"model":"@MODEL@","messages":[{"role":"user","content":"hi"}]}', shape: 'messages' },
  { family: 'Responses', path: '/v1/responses', template: '{"model":"@MODEL@","input":"hi"}', shape: 'openai' },
  { family: 'Responses token counting', path: '/v1/responses/input_tokens', template: '{"model":"@MODEL@","input":"hi"}', shape: 'openai' },
  { family: 'Responses compaction', path: '/v1/responses/compact', template: '{"model":"@MODEL@","input":"hi"}', shape: 'openai' },
  { family: 'Chat Completions', path: '/v1/chat/completions', template: '{"model":"@MODEL@","messages":[{"role":"user","content":"hi"}]}', shape: 'openai' },
  { family: 'legacy Completions', path: '/v1/completions', template: '{"model":"@MODEL@","prompt":"hi"}', shape: 'openai' },
  { family: 'embeddings', path: '/v1/embeddings', template: '{"model":"@MODEL@","input":"hi"}', shape: 'openai' },
  { family: 'rerank', path: '/v1/rerank', template: '{"model":"@MODEL@","query":"hi","documents":["hi"]}', shape: 'openai' },
  { family: 'moderations', path: '/v1/moderations', template: '{"model":"@MODEL@","input":"hi"}', shape: 'openai' },
  { family: 'image generations', path: '/v1/images/generations', template: '{"model":"@MODEL@","prompt":"hi","size":"16x16","response_format":"b64_json"}', shape: 'openai' },
  { family: 'video', path: '/v1/videos', template: '{"model":"@MODEL@","prompt":"a cat","seconds":"1"}', shape: 'openai' },
];

describe.each(ENGINES)('malformed model names (%s)', (engine) => {
  let place: Place;
  let gw: TestGateway;
  beforeAll(async () => {
    place = await createPlace(engine);
    // The default mode: no channel, the built-in simulator would serve any well-formed name.
    gw = await place.start({ config: { keys: [{ name: 'client', key: KEY }] } });
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
  });

  async function send(method: string, path: string, body?: Buffer) {
    const response = await fetch(gw.url + path, { method, headers, body });
    return { status: response.status, body: (await response.json()) as any };
  }

  for (const name of names) {
    for (const route of bodies) {
      it(`${route.family}: ${name.what} is a 400 naming the problem`, async () => {
        const { status, body } = await send('POST', route.path, jsonBody(route.template, name.json));
        expect(status).toBe(400);
        if (route.shape === 'messages') expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringMatching(name.problem) } });
        else expect(body.error).toMatchObject({ type: 'invalid_request_error', param: 'model', message: expect.stringMatching(name.problem) });
      });
    }

    it(`content generation and model lookups (name in the path): ${name.what} is a 400`, async () => {
      for (const method of ['generateContent', 'countTokens', 'embedContent']) {
        const { status, body } = await send('POST', `/v1beta/models/${name.path}:${method}`, Buffer.from('{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}'));
        expect(status, method).toBe(400);
        expect(body.error, method).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringMatching(name.pathProblem ?? name.problem) });
      }
      const gemini = await send('GET', `/v1beta/models/${name.path}`);
      expect(gemini.status).toBe(400);
      expect(gemini.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringMatching(name.pathProblem ?? name.problem) });
      const openAi = await send('GET', `/v1/models/${name.path}`);
      expect(openAi.status).toBe(400);
      expect(openAi.body.error).toMatchObject({ type: 'invalid_request_error', message: expect.stringMatching(name.pathProblem ?? name.problem) });
    });
  }

  it('serves and logs a well-formed name as before, non-Latin scripts included', async () => {
    for (const model of ['plain-model', 'модель-1', '模型-2']) {
      const { status } = await send('POST', '/v1/messages', jsonBody(bodies[0].template, model));
      expect(status, model).toBe(200);
    }
    await gw.gateway.ctx.recorder.flush();
    const logs = (await gw.admin('GET', '/logs?limit=500')).body.data;
    expect(
      logs
        .filter((row: any) => row.httpStatus === 200)
        .map((row: any) => row.model)
        .sort(),
    ).toEqual(['plain-model', 'модель-1', '模型-2'].sort());
  });
});
