/**
 * The client's side of the fault tests: the events a streamed answer carried
 * (read with the SSE parser clients use, each event's data tried as JSON),
 * and the process memory around an oversized answer.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { createParser } from 'eventsource-parser';

export interface ClientEvent {
  event?: string;
  data: string;
  /** The data parsed, or undefined when it is not JSON. */
  json: any;
}

export async function clientEvents(response: Response): Promise<{ events: ClientEvent[]; raw: string }> {
  const raw = await response.text();
  const events: ClientEvent[] = [];
  const parser = createParser({
    onEvent: ({ event, data }) => {
      let json: unknown;
      try {
        json = JSON.parse(data);
      } catch {
        json = undefined;
      }
      events.push({ event, data, json });
    },
  });
  parser.feed(raw);
  return { events, raw };
}

/** A full collection, when the process lets the test ask for one. */
function collector(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

export interface MemoryReading {
  rssBeforeMiB: number;
  rssAfterMiB: number;
  heapBeforeMiB: number;
  heapAfterMiB: number;
}

const toMiB = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 10) / 10;

/**
 * Runs `work` between two readings of the process memory, each after a full
 * collection, and logs them. Without a collector the numbers mean little, so
 * none is taken. Nothing is asserted on them: other tests share the process.
 */
export async function measureMemory(label: string, work: () => Promise<void>): Promise<MemoryReading | undefined> {
  const gc = collector();
  const read = () => {
    gc?.();
    const usage = process.memoryUsage();
    return { rss: usage.rss, heap: usage.heapUsed };
  };
  const before = gc ? read() : undefined;
  await work();
  if (!gc || !before) {
    console.log(`[memory] ${label}: no collector available, not measured`);
    return undefined;
  }
  // Sockets and buffers are released on the next turns of the event loop.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const after = read();
  const reading = {
    rssBeforeMiB: toMiB(before.rss),
    rssAfterMiB: toMiB(after.rss),
    heapBeforeMiB: toMiB(before.heap),
    heapAfterMiB: toMiB(after.heap),
  };
  console.log(`[memory] ${label}: rss ${reading.rssBeforeMiB} -> ${reading.rssAfterMiB} MiB, heap ${reading.heapBeforeMiB} -> ${reading.heapAfterMiB} MiB`);
  return reading;
}
