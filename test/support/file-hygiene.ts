/**
 * Run before every file of the main suite, whose workers keep their modules
 * from one file to the next (`isolate: false`): whatever a file left faked or
 * stubbed (timers, Date, environment variables, globals) is put back when it
 * ends, so the next file in the worker starts with the real ones. A file that
 * forgot its `vi.useRealTimers()` once left undici's timeouts faked for the
 * next one.
 */
import { afterAll, vi } from 'vitest';

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});
