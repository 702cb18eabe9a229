/** The task record as clients see it, the envelope's status and code pairs, and account filters. */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/errors.js';
import { matchesFilter } from '../../../src/tasks/image-accounts.js';
import { accountsOf } from '../../../src/upstreams/accounts-setting.js';
import { renderError } from '../../../src/families/images/errors.js';
import { renderTask } from '../../../src/families/images/render.js';
import type { TaskRecord } from '../../../src/tasks/types.js';
import type { Channel } from '../../../src/core/channel.js';

const task: TaskRecord = {
  id: '1700000000000123',
  family: 'images',
  action: 'IMAGINE',
  keyId: 'k',
  channelId: 'c',
  accountId: 'a',
  account: null,
  upstreamId: 'UPSTREAM-SECRET-ID',
  upstreamData: { schedule: { startAt: 1 } },
  parentId: null,
  status: 'SUCCESS',
  progress: 100,
  request: { endpoint: 'imagine', botType: 'MID_GEN', prompt: '猫', promptEn: '猫', state: 's', imageDigests: [], inputMedia: [], publicBase: 'https://gw.example' },
  result: {
    layout: 'grid',
    finalPrompt: '猫 --v 6.1',
    buttons: [{ customId: 'IG::JOB::upsample::1::abcdef01', emoji: '', label: 'U1', style: 2, type: 2, upstreamCustomId: 'VEND::JOB::upsample::1::zzz' }],
    media: [{ key: '0123456789abcdef0123456789abcdef.png', contentType: 'image/png', size: 10 }],
  },
  failReason: null,
  notifyHook: null,
  cost: 0.1,
  billing: 'settled',
  version: 4,
  leaseOwner: null,
  leaseUntil: null,
  nextPollAt: null,
  pollCount: 0,
  submitTime: 1_700_000_000_000,
  startTime: 1_700_000_000_100,
  finishTime: 1_700_000_005_000,
  timeoutAt: 0,
  createdAt: 0,
  updatedAt: 0,
};

describe('task record', () => {
  it('shows the spec fields only, with gateway addresses and no upstream detail', () => {
    const view = renderTask(task);
    expect(view).toEqual({
      id: '1700000000000123',
      action: 'IMAGINE',
      status: 'SUCCESS',
      prompt: '猫',
      promptEn: '猫',
      description: '/imagine 猫',
      failReason: '',
      imageUrl: 'https://gw.example/ig/image/0123456789abcdef0123456789abcdef.png',
      progress: '100%',
      state: 's',
      submitTime: 1_700_000_000_000,
      startTime: 1_700_000_000_100,
      finishTime: 1_700_000_005_000,
      properties: { finalPrompt: '猫 --v 6.1', finalZhPrompt: '猫', botType: 'MID_GEN' },
      buttons: [{ customId: 'IG::JOB::upsample::1::abcdef01', emoji: '', label: 'U1', style: 2, type: 2 }],
    });
    expect(JSON.stringify(view)).not.toMatch(/UPSTREAM-SECRET-ID|VEND::/);
    expect(renderTask(task, 'http://other:1').imageUrl).toBe('http://other:1/ig/image/0123456789abcdef0123456789abcdef.png');
  });

  it('shows no image, buttons or times before the task is done', () => {
    const view = renderTask({ ...task, status: 'IN_PROGRESS', progress: 46, startTime: null, finishTime: null });
    expect(view).toMatchObject({ progress: '46%', imageUrl: '', buttons: [], startTime: 0, finishTime: 0 });
    expect(renderTask({ ...task, status: 'MODAL', progress: 0 }).description).toBe('Waiting for window confirm');
  });
});

describe('envelope errors', () => {
  it.each([
    [new GatewayError('invalid_request', 'x'), 400, 21],
    [new GatewayError('payload_too_large', 'x'), 400, 21],
    [new GatewayError('not_found', 'x'), 404, 21],
    [new GatewayError('authentication', 'x'), 401, 24],
    [new GatewayError('permission', 'x'), 403, 24],
    [new GatewayError('quota_exhausted', 'x'), 403, 25],
    [new GatewayError('rate_limited', 'x', { retryAfterSeconds: 3 }), 429, 23],
    [new GatewayError('upstream_error', 'x'), 500, 23],
    [new GatewayError('timeout', 'x'), 500, 23],
    [new GatewayError('internal', 'x'), 500, 23],
  ])('maps %s', (error, status, code) => {
    const rendered = renderError(error);
    expect(rendered.status).toBe(status);
    expect(rendered.body).toEqual({ code, description: 'x', result: null });
  });

  it('sends retry-after with a rate limit', () => {
    expect(renderError(new GatewayError('rate_limited', 'x', { retryAfterSeconds: 3 })).headers).toEqual({ 'retry-after': '3' });
  });
});

describe('accounts', () => {
  const channel = (settings: Record<string, unknown>) => ({ name: 'chan', settings }) as unknown as Channel;

  it('makes a channel without accounts one account named after it', () => {
    expect(accountsOf(channel({}))).toEqual([{ instanceId: 'chan', channelId: 'chan', modes: ['RELAX', 'FAST', 'TURBO'], remark: '', remix: false, remixAutoConsidered: false }]);
  });

  it('reads declared accounts and leaves disabled ones out', () => {
    const accounts = accountsOf(
      channel({
        accounts: [
          { instanceId: 'a', modes: ['FAST'], remark: 'team blue', remix: true },
          { instanceId: 'b', enabled: false },
        ],
      }),
    );
    expect(accounts).toEqual([{ instanceId: 'a', channelId: 'a', modes: ['FAST'], remark: 'team blue', remix: true, remixAutoConsidered: false }]);
    expect(() => accountsOf(channel({ accounts: [{ modes: ['FAST'] }] }))).toThrow(/needs an instanceId/);
    expect(() => accountsOf(channel({ accounts: [{ instanceId: 'a', modes: ['SLOW'] }] }))).toThrow(/modes/);
  });

  it('matches every condition of a filter', () => {
    const [account] = accountsOf(channel({ accounts: [{ instanceId: 'a', channelId: 'room', modes: ['FAST', 'RELAX'], remark: 'team blue', remix: true }] }));
    expect(matchesFilter(account, undefined)).toBe(true);
    expect(matchesFilter(account, { instanceId: 'a', channelId: 'room', remark: 'blue', modes: ['TURBO', 'FAST'], remix: true })).toBe(true);
    expect(matchesFilter(account, { remark: 'red' })).toBe(false);
    expect(matchesFilter(account, { modes: ['TURBO'] })).toBe(false);
    expect(matchesFilter(account, { remixAutoConsidered: true })).toBe(false);
    expect(matchesFilter(account, { channelId: 'other' })).toBe(false);
  });
});
