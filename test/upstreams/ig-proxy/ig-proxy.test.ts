/**
 * The ig-proxy adapter against a loopback service that behaves like a real
 * one: vendor words from channel settings, envelope codes, 5xx and slow
 * answers, batched polling, buttons rewritten to the gateway's customIds,
 * guarded image downloads, seeds and modals.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/errors.js';
import type { ImageTaskRequest } from '../../../src/tasks/image-contract.js';
import { OutboundGuard } from '../../../src/tasks/outbound-guard.js';
import type { TaskCall, TaskRecord } from '../../../src/tasks/types.js';
import { igProxyUpstream } from '../../../src/upstreams/ig-proxy/index.js';
import type { Channel } from '../../../src/core/channel.js';
import { startFakeImageService, type FakeImageService } from './fake-service.js';

let service: FakeImageService;
const allowLoopback = new OutboundGuard(['127.0.0.1']);
const closed = new OutboundGuard([]);

beforeAll(async () => {
  service = await startFakeImageService({ stepMs: 30 });
});
afterAll(async () => {
  await service.close();
  await allowLoopback.close();
  await closed.close();
});
afterEach(() => {
  service.requests.length = 0;
});

function channel(settings: Record<string, unknown> = {}): Channel {
  return {
    id: 'chan_proxy',
    name: 'vendor',
    type: 'ig-proxy',
    baseUrl: service.origin,
    apiKeys: ['upstream-secret-0001'],
    models: ['*'],
    modelMapping: {},
    priority: 0,
    weight: 1,
    enabled: true,
    settings: {
      pathPrefix: '/vend',
      secretHeader: 'vend-api-secret',
      botTypes: { MID_GEN: 'VEND_BOT', NIJI_GEN: 'VEND_NIJI' },
      customIdPrefix: 'VEND',
      ...settings,
    },
  };
}

const call = (overrides: Partial<TaskCall> = {}): TaskCall => ({
  channel: channel(),
  apiKey: 'upstream-secret-0001',
  signal: AbortSignal.timeout(5_000),
  timeoutMs: 2_000,
  outbound: allowLoopback,
  ...overrides,
});

let sequence = 0;
function task(action: string, request: Partial<ImageTaskRequest>, extra: Partial<TaskRecord> = {}): TaskRecord {
  const full: ImageTaskRequest = {
    endpoint: 'imagine',
    botType: 'MID_GEN',
    prompt: 'a cat',
    promptEn: 'a cat',
    state: '',
    imageDigests: [],
    inputMedia: [],
    publicBase: 'http://gateway',
    ...request,
  };
  return {
    id: `17000000000000${String(sequence++).padStart(2, '0')}`,
    family: 'images',
    action,
    keyId: 'key',
    channelId: 'chan_proxy',
    accountId: 'vendor',
    account: null,
    upstreamId: null,
    upstreamData: null,
    parentId: null,
    status: 'NOT_START',
    progress: 0,
    request: full as unknown as Record<string, unknown>,
    result: null,
    failReason: null,
    notifyHook: null,
    cost: 0,
    billing: 'none',
    version: 0,
    leaseOwner: null,
    leaseUntil: null,
    nextPollAt: null,
    pollCount: 0,
    submitTime: Date.now(),
    startTime: null,
    finishTime: null,
    timeoutAt: Date.now() + 60_000,
    createdAt: Date.now(),
    updatedAt: Date.now(),
    ...extra,
  };
}

const image = { bytes: Buffer.from('x'), contentType: 'image/png', dataUrl: 'data:image/png;base64,eA==', digest: 'd' };

async function submitted(action = 'IMAGINE', request: Partial<ImageTaskRequest> = {}) {
  const record = task(action, request);
  const outcome = await igProxyUpstream.submit(record, { images: [image] }, call());
  return { ...record, upstreamId: outcome.upstreamId, status: outcome.status ?? 'SUBMITTED' } as TaskRecord;
}

async function finished(record: TaskRecord) {
  for (;;) {
    const observed = (await igProxyUpstream.poll([record], call())).get(record.id);
    if (observed?.status === 'SUCCESS' || observed?.status === 'FAILURE') return observed;
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}

describe('ig-proxy upstream', () => {
  it('submits under the channel’s prefix, secret header and bot-type words', async () => {
    const outcome = await igProxyUpstream.submit(task('IMAGINE', { botType: 'NIJI_GEN', prompt: 'a fox' }), { images: [image] }, call());
    expect(outcome).toMatchObject({ status: 'SUBMITTED' });
    expect(outcome.upstreamId).toMatch(/^U\d+$/);
    const [sent] = service.requests;
    expect(sent.path).toBe('/vend/submit/imagine');
    expect(sent.headers['vend-api-secret']).toBe('upstream-secret-0001');
    expect(sent.body).toEqual({ botType: 'VEND_NIJI', prompt: 'a fox', base64Array: ['data:image/png;base64,eA=='] });
  });

  it('forwards the declared account as the upstream account filter', async () => {
    const accounts = channel({ accounts: [{ instanceId: 'vendor-7' }] });
    await igProxyUpstream.submit(task('IMAGINE', {}, { accountId: 'vendor-7' }), { images: [], accountFilter: { remark: 'x' } }, call({ channel: accounts }));
    expect(service.requests[0].body.accountFilter).toEqual({ instanceId: 'vendor-7' });
  });

  it('reads code 22 as queued', async () => {
    const outcome = await igProxyUpstream.submit(task('IMAGINE', { prompt: 'queue me' }), { images: [] }, call());
    expect(outcome).toMatchObject({ status: 'NOT_START', queuePosition: 2 });
  });

  it('refuses a banned prompt (code 24) as an unavailable account, not to be retried', async () => {
    const failure = await igProxyUpstream.submit(task('IMAGINE', { prompt: 'banned words' }), { images: [] }, call()).catch((error) => error);
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure).toMatchObject({ kind: 'permission', retryable: false });
    expect(failure.message).toMatch(/banned word/);
  });

  it('refuses a parameter the service rejects (code 4) as a parameter error', async () => {
    const wrongWords = channel({ botTypes: { MID_GEN: 'NOT_A_VENDOR_WORD' } });
    const failure = await igProxyUpstream.submit(task('IMAGINE', {}), { images: [] }, call({ channel: wrongWords })).catch((error) => error);
    expect(failure).toMatchObject({ kind: 'invalid_request', retryable: false });
    expect(failure.message).toMatch(/unknown botType NOT_A_VENDOR_WORD/);
  });

  it.each([500, 502, 503])('makes an upstream %i retryable, without echoing the secret', async (status) => {
    service.troubleNext(1, { status, body: JSON.stringify({ message: 'boom for upstream-secret-0001' }) });
    const failure = await igProxyUpstream.submit(task('IMAGINE', {}), { images: [] }, call()).catch((error) => error);
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure.retryable).toBe(true);
    expect(failure.upstreamStatus).toBe(status);
    expect(failure.message).not.toContain('upstream-secret-0001');
    expect(failure.message).toContain('[redacted]');
  });

  it('gives up on a slow answer with a retryable timeout', async () => {
    service.troubleNext(1, { delayMs: 2_500 });
    const started = Date.now();
    const failure = await igProxyUpstream.submit(task('IMAGINE', {}), { images: [] }, call({ timeoutMs: 300 })).catch((error) => error);
    expect(failure).toMatchObject({ kind: 'timeout', retryable: true });
    expect(Date.now() - started).toBeLessThan(2_400);
  });

  it('polls many tasks in one list call and rewrites buttons to the gateway’s customIds', async () => {
    const records = await Promise.all([submitted(), submitted(), submitted()]);
    service.listCalls.length = 0;
    const first = await igProxyUpstream.poll(records, call());
    expect(service.listCalls).toEqual([records.map((record) => record.upstreamId)]);
    expect([...first.keys()].sort()).toEqual(records.map((record) => record.id).sort());
    const done = await finished(records[0]);
    expect(done.status).toBe('SUCCESS');
    expect(done.progress).toBe(100);
    expect(done.mediaUrls?.[0]).toMatch(/\/cdn\/U\d+\.png$/);
    const result = done.result as any;
    expect(result.layout).toBe('grid');
    expect(result.finalPrompt).toBe('a cat --v 6.1');
    expect(result.buttons).toHaveLength(9);
    expect(result.buttons[0].customId).toMatch(/^IG::JOB::upsample::1::[0-9a-f-]{36}$/);
    expect(result.buttons[0].upstreamCustomId).toMatch(/^VEND::JOB::upsample::1::/);
    expect(result.buttons[0].customId.split('::')[4]).not.toBe(result.buttons[0].upstreamCustomId.split('::')[4]);
  });

  it('leaves out tasks the service does not know, and reads failures', async () => {
    service.failPrompt('doomed');
    const doomed = await submitted('IMAGINE', { prompt: 'doomed cat' });
    const ghost = { ...task('IMAGINE', {}), upstreamId: 'U999999' };
    const observed = await igProxyUpstream.poll([doomed, ghost], call());
    expect(observed.has(ghost.id)).toBe(false);
    const failed = await finished(doomed);
    expect(failed).toMatchObject({ status: 'FAILURE', failReason: 'upstream says no' });
  });

  it('downloads the result image only from allowed addresses', async () => {
    const record = await submitted();
    const done = await finished(record);
    const [media] = await igProxyUpstream.fetchMedia!(record, done, call());
    expect(media.contentType).toBe('image/png');
    expect(media.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    const refused = await igProxyUpstream.fetchMedia!(record, done, call({ outbound: closed })).catch((error) => error);
    expect(refused.message).toMatch(/private or reserved/);
  });

  it('presses buttons with the upstream’s ids, and a modal button waits for the modal', async () => {
    const parent = await submitted();
    const done = await finished(parent);
    const buttons = (done.result as any).buttons;
    const upscale = await igProxyUpstream.submit(
      task('UPSCALE', { endpoint: 'action', customId: buttons[0].customId }),
      { images: [], parentUpstreamId: parent.upstreamId!, upstreamCustomId: buttons[0].upstreamCustomId },
      call(),
    );
    expect(service.requests.at(-1)!.body).toEqual({ taskId: parent.upstreamId, customId: buttons[0].upstreamCustomId });
    const upscaleRecord = { ...task('UPSCALE', { endpoint: 'action' }), upstreamId: upscale.upstreamId };
    const upscaled = await finished(upscaleRecord);
    const upscaleButtons = (upscaled.result as any).buttons;
    // The link button is dropped.
    expect(upscaleButtons.map((b: any) => b.label)).toEqual(['Upscale (Subtle)', 'Vary (Subtle)', 'Custom Zoom', '']);
    const zoomButton = upscaleButtons[2];
    expect(zoomButton.customId).toMatch(/^IG::CustomZoom::[0-9a-f-]{36}$/);
    const zoom = await igProxyUpstream.submit(task('ZOOM', { endpoint: 'action' }), { images: [], parentUpstreamId: upscale.upstreamId, upstreamCustomId: zoomButton.upstreamCustomId }, call());
    expect(zoom.status).toBe('MODAL');
    const zoomRecord = { ...task('ZOOM', { endpoint: 'action' }), upstreamId: zoom.upstreamId, status: 'MODAL' as const };
    expect((await igProxyUpstream.poll([zoomRecord], call())).get(zoomRecord.id)?.status).toBe('MODAL');
    const confirmed = await igProxyUpstream.confirmModal(zoomRecord, { prompt: 'wider --zoom 1.5' }, call());
    expect(confirmed).toMatchObject({ status: 'SUBMITTED', upstreamId: zoom.upstreamId });
    expect(service.requests.at(-1)!).toMatchObject({ path: '/vend/submit/modal', body: { taskId: zoom.upstreamId, prompt: 'wider --zoom 1.5' } });
    expect((await finished(zoomRecord)).status).toBe('SUCCESS');
  });

  it('reads describe and shorten suggestions', async () => {
    const describe = await finished(await submitted('DESCRIBE', { endpoint: 'describe' }));
    expect((describe.result as any).prompts).toEqual(['a cat --ar 1:1', 'a dog --ar 1:1', 'a bird --ar 1:1', 'a fish --ar 1:1']);
    expect(describe.mediaUrls).toBeUndefined();
    const shorten = await finished(await submitted('SHORTEN', { endpoint: 'shorten', prompt: 'long prompt' }));
    expect((shorten.result as any).prompts).toEqual(['short', 'shorter']);
  });

  it('asks the service for a seed with the upstream id', async () => {
    const record = await submitted();
    const seed = await igProxyUpstream.imageSeed(record, call());
    expect(seed).toMatch(/^\d+$/);
    expect(service.requests.at(-1)!.path).toBe(`/vend/task/${record.upstreamId}/image-seed`);
  });

  it('names a bad setting', async () => {
    const failure = await igProxyUpstream.submit(task('IMAGINE', {}), { images: [] }, call({ channel: channel({ pathPrefix: 'no-slash' }) })).catch((error) => error);
    expect(failure.message).toMatch(/ig-proxy channel [^:]+: settings.pathPrefix must be a string matching/);
  });
});
