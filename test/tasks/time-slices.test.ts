/**
 * A long pass hands the event loop over once it has held it for its slice,
 * and not before: work queued meanwhile (here a setImmediate callback, as
 * the socket reads of waiting requests are) runs before the pass goes on.
 */
import { describe, expect, it } from 'vitest';
import { timeSlices } from '../../src/tasks/time-slices.js';

describe('time slices', () => {
  it('let queued work run once a pass has held the loop for its slice', async () => {
    let otherRan = false;
    setImmediate(() => (otherRan = true));
    // A slice long enough that a collection pause between two statements does not end it.
    const checkpoint = timeSlices(50);
    expect(checkpoint()).toBeUndefined();
    const until = performance.now() + 60;
    while (performance.now() < until) {
      // Synchronous work, as a SQLite call is.
    }
    expect(otherRan).toBe(false);
    const handOver = checkpoint();
    expect(handOver).toBeInstanceOf(Promise);
    await handOver;
    expect(otherRan).toBe(true);
    // A new slice starts after the hand-over.
    expect(checkpoint()).toBeUndefined();
  });
});
