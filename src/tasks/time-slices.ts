/**
 * SQLite calls are synchronous, so a pass that awaits a few hundred of them
 * in a row never lets the event loop go: requests that arrive meanwhile wait
 * for the whole pass (tens of milliseconds for a batch of changed tasks). A
 * pass calls the function this returns between two items; it hands the loop
 * over (one `setImmediate` turn) once the pass has held it for `sliceMs`.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

export type Checkpoint = () => Promise<void> | undefined;

export function timeSlices(sliceMs = 1): Checkpoint {
  let since = performance.now();
  return () => {
    if (performance.now() - since < sliceMs) return undefined;
    return nextTurn().then(() => {
      since = performance.now();
    });
  };
}
