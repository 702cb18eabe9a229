/** Task records and calls for testing video upstreams without a gateway. */
import { OutboundGuard } from '../../../src/tasks/outbound-guard.js';
import type { TaskCall, TaskRecord } from '../../../src/tasks/types.js';
import type { VideoTaskRequest } from '../../../src/tasks/video-contract.js';
import type { Channel } from '../../../src/core/channel.js';

export function videoChannel(type: string, baseUrl: string, apiKey: string, extra: Partial<Channel> = {}): Channel {
  return { id: `chan_${type}`, name: `${type}-test`, type, baseUrl, apiKeys: [apiKey], models: ['*'], modelMapping: {}, priority: 0, weight: 1, enabled: true, settings: {}, ...extra };
}

export function videoRequest(overrides: Partial<VideoTaskRequest> = {}): VideoTaskRequest {
  return { model: 'sora-2', kind: 'standard', prompt: 'a test', seconds: 4, width: 720, height: 1280, tier: '720P', options: {}, publicBase: 'http://gw', ...overrides };
}

let counter = 0;

export function videoTask(request: VideoTaskRequest, overrides: Partial<TaskRecord> = {}): TaskRecord {
  const now = Date.now();
  return {
    id: `${now}${String(++counter).padStart(3, '0')}`,
    family: 'videos',
    action: 'GENERATE',
    keyId: 'key_1',
    channelId: 'chan',
    accountId: null,
    account: null,
    upstreamId: null,
    upstreamData: null,
    parentId: null,
    status: 'SUBMITTED',
    progress: 0,
    request: request as unknown as Record<string, unknown>,
    result: null,
    failReason: null,
    notifyHook: null,
    cost: 0,
    billing: 'none',
    version: 1,
    leaseOwner: null,
    leaseUntil: null,
    nextPollAt: null,
    pollCount: 0,
    submitTime: now,
    startTime: null,
    finishTime: null,
    timeoutAt: now + 60_000,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

export function callFor(channel: Channel, allow: string[] = ['127.0.0.1']): TaskCall {
  return { channel, apiKey: channel.apiKeys[0], signal: AbortSignal.timeout(10_000), timeoutMs: 5_000, outbound: new OutboundGuard(allow) };
}
