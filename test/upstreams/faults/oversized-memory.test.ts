/**
 * Oversized upstream answers under the default bounds (32 MiB per answer, 32
 * MiB per event), on every chat family's pass-through and translated paths:
 * the upstream offers 512 MiB, the gateway stops reading at the bound, the
 * request fails cleanly (over to the healthy channel, or with the family's
 * error frame) and the gateway still answers. The process memory is read
 * before and after each (after a full collection) and logged, not asserted:
 * other tests share the process. The stream's total bound (256 MiB) is
 * checked with small bounds in the per-family files.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { TestGateway } from '../../support/gateway.js';
import type { FakeUpstream } from '../support/fake-upstream.js';
import { clientEvents, measureMemory, type MemoryReading } from './client.js';
import { generateFamily, messagesFamily, responsesFamily } from './families.js';
import { startFaultGateway, type FamilyUnderTest } from './setup.js';
import { faultHandler, healthy, oversized, type Pour } from './upstreams.js';

const MiB = 1024 * 1024;
const readings: Array<{ label: string; reading: MemoryReading | undefined }> = [];

afterAll(() => {
  for (const { label, reading } of readings) {
    if (reading) console.log(`[memory summary] ${label}: rss ${reading.rssBeforeMiB} -> ${reading.rssAfterMiB} MiB, heap ${reading.heapBeforeMiB} -> ${reading.heapAfterMiB} MiB`);
  }
});

describe.each([messagesFamily, responsesFamily, generateFamily])('$name under the default bounds', (family: FamilyUnderTest) => {
  let bad: FakeUpstream;
  let good: FakeUpstream;
  let gw: TestGateway;

  const send = (model: string, stream: boolean) => family.send(gw.url, family.clientKey, model, stream);

  async function stillServing(model: string): Promise<void> {
    bad.reply(healthy);
    const response = await send(model, false);
    expect(response.status).toBe(200);
    expect(family.isAnswer(await response.json())).toBe(true);
  }

  it.each([
    ['pass-through', 'pt'],
    ['translated', 'tr'],
  ])('%s: a 512 MiB answer is cut at 32 MiB and the healthy channel serves', async (path, prefix) => {
    ({ bad, good, gw } = await startFaultGateway(family, {}));
    try {
      for (const kind of ['body', 'event'] as const) {
        const pour: Pour = { sent: 0, stopped: false };
        bad.reply(faultHandler(oversized(kind, pour)));
        const label = `${family.name} ${path}, oversized ${kind === 'body' ? 'answer' : 'stream event'} (default bounds)`;
        const reading = await measureMemory(label, async () => {
          const response = await send(`${prefix}-model`, kind === 'event');
          expect(response.status).toBe(200);
          if (kind === 'body') expect(family.isAnswer(await response.json())).toBe(true);
          else expect(family.isErrorFrame((await clientEvents(response)).events.at(-1)!)).toBe(true);
          await vi.waitFor(() => expect(pour.stopped).toBe(true));
        });
        readings.push({ label, reading });
        // Reading stopped at the bound: what was sent beyond it sat in socket buffers.
        expect(pour.sent).toBeGreaterThan(32 * MiB);
        expect(pour.sent).toBeLessThan(128 * MiB);
        await stillServing(`${prefix}-model`);
      }
    } finally {
      await gw.close();
      await bad.close();
      await good.close();
    }
  });
});
