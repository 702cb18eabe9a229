/**
 * The upstream faults every chat family is tested against, on the
 * pass-through path (a channel speaking the family's dialect) and on a
 * translated path. Each family's test file describes how its clients ask and
 * what its errors look like, and runs these scenarios with it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestGateway } from '../../support/gateway.js';
import type { FakeUpstream } from '../support/fake-upstream.js';
import { clientEvents, measureMemory, type ClientEvent } from './client.js';
import { startFaultGateway, type FamilyUnderTest } from './setup.js';
import { faultHandler, faults, healthy, oversized, type Fault, type Pour } from './upstreams.js';

const MiB = 1024 * 1024;
/** Small bounds keep the tests quick; the default bounds are measured in oversized-memory.test.ts. */
export const TEST_BOUNDS = { maxUpstreamBodyBytes: 1 * MiB, maxUpstreamStreamBytes: 4 * MiB, maxUpstreamEventBytes: 256 * 1024 };

export function describeUpstreamFaults(family: FamilyUnderTest): void {
  let bad: FakeUpstream;
  let good: FakeUpstream;
  let gw: TestGateway;

  beforeAll(async () => {
    ({ bad, good, gw } = await startFaultGateway(family, { upstreamTimeoutMs: 500, ...TEST_BOUNDS }));
  });
  afterEach(() => {
    bad.reply(healthy);
    // Each fault is its own case: the breaker the earlier ones opened must not bench the bad channel for the next.
    gw.gateway.ctx.health.reset();
  });
  afterAll(async () => {
    await gw?.close();
    await bad?.close();
    await good?.close();
  });

  const send = (model: string, stream: boolean) => family.send(gw.url, family.clientKey, model, stream);

  /** A plain request that the bad channel fails and the good one must serve. */
  async function expectFailover(model: string, fault: Fault, stream = false): Promise<void> {
    bad.reply(faultHandler(fault));
    const [badBefore, goodBefore] = [bad.requests.length, good.requests.length];
    const response = await send(model, stream);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    if (!stream) expect(family.isAnswer(JSON.parse(text))).toBe(true);
    expect(bad.requests.length - badBefore).toBe(1);
    expect(good.requests.length - goodBefore).toBe(1);
  }

  /** A stream the bad channel breaks: it must end with the family's error frame, every event whole JSON. */
  async function expectErrorFrame(model: string, fault: Fault): Promise<ClientEvent[]> {
    bad.reply(faultHandler(fault));
    const response = await send(model, true);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/event-stream/);
    const { events, raw } = await clientEvents(response);
    expect(raw).not.toContain('@@');
    expect(raw).not.toContain('"te\n');
    for (const event of events) expect(event.json, `an event that is not JSON: ${event.data.slice(0, 80)}`).not.toBeUndefined();
    expect(events.length).toBeGreaterThan(0);
    expect(family.isErrorFrame(events.at(-1)!)).toBe(true);
    return events;
  }

  /** The gateway answers a healthy request after a fault. */
  async function expectStillServing(model: string): Promise<void> {
    bad.reply(healthy);
    const response = await send(model, false);
    expect(response.status).toBe(200);
    expect(family.isAnswer(await response.json())).toBe(true);
  }

  for (const [path, prefix] of [
    ['pass-through', 'pt'],
    ['translated', 'tr'],
  ] as const) {
    const model = `${prefix}-model`;
    const solo = `${prefix}solo-model`;

    describe(`${family.name}, ${path} path`, () => {
      it.each([
        ['truncated JSON', faults.truncatedJson],
        ['an HTML page', faults.htmlPage],
        ['a body that is not JSON', faults.notJson],
      ])('a 200 with %s fails over to the healthy channel', async (_name, fault) => {
        await expectFailover(model, fault);
      });

      it.each([
        ['garbage bytes between events', faults.garbageInStream],
        ['an event with truncated JSON', faults.truncatedEvent],
        ['a stream that ends before its last event', faults.endsEarly],
        ['a connection reset half way', faults.resetMidStream],
      ])('a stream with %s ends with the family error frame, relaying no garbage', async (_name, fault) => {
        await expectErrorFrame(model, fault);
      });

      it('an oversized plain answer is cut at the bound and fails over', async () => {
        const pour: Pour = { sent: 0, stopped: false };
        await measureMemory(`${family.name} ${path} oversized answer (bound 1 MiB)`, async () => {
          await expectFailover(model, oversized('body', pour));
        });
        expect(pour.stopped).toBe(true);
        // The reading stopped near the bound: only socket buffers lie between.
        expect(pour.sent).toBeLessThan(64 * MiB);
        await expectStillServing(model);
      });

      it('an oversized plain answer on the only channel is an upstream failure in the family shape', async () => {
        const pour: Pour = { sent: 0, stopped: false };
        bad.reply(faultHandler(oversized('body', pour)));
        const response = await send(solo, false);
        expect(response.status).toBe(family.upstreamFailureStatus);
        const body = await response.json();
        expect(family.isErrorBody(body)).toBe(true);
        expect(JSON.stringify(body)).toContain('larger than');
        await vi.waitFor(() => expect(pour.stopped).toBe(true));
      });

      it.each([
        ['an oversized stream', 'stream'],
        ['an oversized event', 'event'],
      ] as const)('%s is cut at the bound and ends with the family error frame', async (_name, kind) => {
        const pour: Pour = { sent: 0, stopped: false };
        await measureMemory(`${family.name} ${path} ${_name}`, async () => {
          await expectErrorFrame(model, oversized(kind, pour));
        });
        expect(pour.stopped).toBe(true);
        expect(pour.sent).toBeLessThan(64 * MiB);
        await expectStillServing(model);
      });

      it.each([
        ['a 500', faults.status(500)],
        ['a 503', faults.status(503)],
        ['a 429', faults.status(429, { 'retry-after': '7' })],
        ['a connection reset before the headers', faults.resetBeforeHeaders],
        ['headers slower than the timeout', faults.slowHeaders],
      ])('still fails over after %s', async (_name, fault) => {
        await expectFailover(model, fault);
      });

      it('still fails over after a 500 on a streamed request', async () => {
        await expectFailover(model, faults.status(500), true);
      });

      it('passes a 429 and its retry-after on when no other channel serves', async () => {
        bad.reply(faultHandler(faults.status(429, { 'retry-after': '7' })));
        const response = await send(solo, false);
        expect(response.status).toBe(429);
        expect(response.headers.get('retry-after')).toBe('7');
        expect(family.isErrorBody(await response.json())).toBe(true);
      });
    });
  }
}
