/**
 * The loop looks for due callbacks after every pass while it finds some or
 * this instance queued one, and otherwise once per tick, so back-to-back
 * poll batches do not each add a query (tasks/delivery-cadence.ts).
 */
import { describe, expect, it } from 'vitest';
import { DeliveryCadence } from '../../src/tasks/delivery-cadence.js';

describe('when the loop looks for callbacks', () => {
  it('looks at first, then once per tick after a pass that found nothing', () => {
    const cadence = new DeliveryCadence(500);
    expect(cadence.due(1_000)).toBe(true);
    cadence.ran(cadence.snapshot(), 0, 1_000);
    expect(cadence.due(1_001)).toBe(false);
    expect(cadence.due(1_499)).toBe(false);
    expect(cadence.due(1_500)).toBe(true);
  });

  it('looks again after the next pass while passes find callbacks', () => {
    const cadence = new DeliveryCadence(500);
    cadence.ran(cadence.snapshot(), 0, 1_000);
    cadence.ran(cadence.snapshot(), 3, 1_100);
    expect(cadence.due(1_101)).toBe(true);
  });

  it('looks at once for a callback queued here, even one queued during an empty pass', () => {
    const cadence = new DeliveryCadence(500);
    cadence.ran(cadence.snapshot(), 0, 1_000);
    cadence.queue();
    expect(cadence.due(1_001)).toBe(true);
    const snapshot = cadence.snapshot();
    // Queued after the pass read its snapshot: the pass may have missed it.
    cadence.queue();
    cadence.ran(snapshot, 0, 1_002);
    expect(cadence.due(1_003)).toBe(true);
    cadence.ran(cadence.snapshot(), 0, 1_004);
    expect(cadence.due(1_005)).toBe(false);
  });
});
