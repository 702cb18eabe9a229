/**
 * The gateway every fuzz file attacks, and the records its base requests
 * address: a stored response, a finished image task (its first button and
 * image), a finished video (its file), an admin key and a channel. Tasks run
 * on one simulator channel that finishes at once with tiny media, so
 * accepted submissions cost next to nothing.
 */
import type { TestGateway } from '../support/gateway.js';
import type { Place } from '../support/places.js';
import type { Fixtures } from './catalogue.js';

/** Small enough that a huge fuzz value crosses it now and then (a 413), large enough for every base body. */
export const FUZZ_MAX_BODY_BYTES = 4 * 1024 * 1024;

const CONFIG = {
  channels: [
    {
      name: 'fuzz-sim',
      type: 'simulator',
      settings: {
        taskSeconds: 0,
        imageSize: 16,
        videoSize: 32,
        fps: 4,
        accounts: [{ instanceId: 'fuzz-acc', channelId: 'fuzz-room', modes: ['FAST', 'RELAX'] }],
      },
    },
  ],
};

export function startFuzzGateway(place: Place): Promise<TestGateway> {
  return place.start({ config: CONFIG, settings: { maxBodyBytes: FUZZ_MAX_BODY_BYTES } });
}

async function call(gw: TestGateway, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(gw.url + path, {
    method,
    headers: { authorization: `Bearer ${gw.clientKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (response.status >= 300) throw new Error(`fixture ${method} ${path} answered ${response.status}: ${JSON.stringify(json)}`);
  return json;
}

async function until<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`fixture: ${what} did not happen within 20 s`);
}

const lastSegment = (url: string) => new URL(url).pathname.split('/').pop() ?? '';

export async function createFixtures(gw: TestGateway): Promise<Fixtures> {
  const response = await call(gw, 'POST', '/v1/responses', { model: 'fuzz-model', input: 'fixture', store: true });
  const submitted = await call(gw, 'POST', '/ig/submit/imagine', { prompt: 'a fixture lighthouse' });
  const task = await until('the image task finishing', async () => {
    const fetched = await call(gw, 'GET', `/ig/task/${submitted.result}/fetch`);
    return fetched.status === 'SUCCESS' ? fetched : undefined;
  });
  const created = await call(gw, 'POST', '/v1/videos', { model: 'sora-2', prompt: 'a fixture cat', seconds: '1', size: '64x64' });
  const video = await until('the video finishing', async () => {
    const read = await call(gw, 'GET', `/v1/videos/${created.id}`);
    if (read.status === 'failed') throw new Error(`fixture video failed: ${JSON.stringify(read)}`);
    return read.status === 'succeeded' ? read : undefined;
  });
  const batches = await batchFixtures(gw);
  const key = await gw.admin('POST', '/keys', { name: 'fixture key' });
  const channel = await gw.admin('POST', '/channels', { name: 'fixture channel', type: 'simulator', models: ['fixture-only'], enabled: false });
  return {
    responseId: response.id,
    imageTaskId: submitted.result,
    imageCustomId: task.buttons[0].customId,
    imageKey: lastSegment(task.imageUrl),
    videoId: created.id,
    videoKey: lastSegment(video.url),
    ...batches,
    keyId: key.body.id,
    channelId: channel.body.id,
  };
}

/** A `batch` file, an OpenAI batch of it and a Message Batch, both waited for until they ended. */
async function batchFixtures(gw: TestGateway): Promise<{ fileId: string; batchId: string; messageBatchId: string }> {
  const line = { custom_id: 'fixture', method: 'POST', url: '/v1/chat/completions', body: { model: 'fuzz-model', messages: [{ role: 'user', content: 'hi' }] } };
  const form = new FormData();
  form.append('purpose', 'batch');
  form.append('file', new Blob([`${JSON.stringify(line)}\n`]), 'fixture.jsonl');
  const uploaded = await fetch(`${gw.url}/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${gw.clientKey}` }, body: form });
  const file = (await uploaded.json()) as { id: string };
  if (uploaded.status !== 200) throw new Error(`fixture file upload answered ${uploaded.status}: ${JSON.stringify(file)}`);
  const batch = await call(gw, 'POST', '/v1/batches', { input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
  await until('the batch ending', async () => ((await call(gw, 'GET', `/v1/batches/${batch.id}`)).status === 'completed' ? true : undefined));
  const messages = { authorization: `Bearer ${gw.clientKey}`, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' };
  const created = await fetch(`${gw.url}/v1/messages/batches`, {
    method: 'POST',
    headers: messages,
    body: JSON.stringify({ requests: [{ custom_id: 'fixture', params: { model: 'fuzz-model', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] } }] }),
  });
  const messageBatch = (await created.json()) as { id: string };
  await until('the message batch ending', async () => {
    const read = (await (await fetch(`${gw.url}/v1/messages/batches/${messageBatch.id}`, { headers: messages })).json()) as { processing_status: string };
    return read.processing_status === 'ended' ? true : undefined;
  });
  return { fileId: file.id, batchId: batch.id, messageBatchId: messageBatch.id };
}
