/** Keep-alive frames while a streamed answer's first piece is awaited: none before the interval, then one per interval until stopped. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StreamSink } from '../../src/pipeline/chat-output.js';
import { startWaitPings } from '../../src/pipeline/wait-pings.js';

const FRAME = 'event: ping\ndata: {"type": "ping"}\n\n';

function recordingSink(withKeepAlive = true) {
  const starts: Array<[number, string]> = [];
  const frames: string[] = [];
  const sink: StreamSink = {
    get hasStarted() {
      return starts.length > 0;
    },
    start: (status, contentType) => void starts.push([status, contentType]),
    write: async () => true,
    end: () => {},
    ...(withKeepAlive ? { keepAlive: (frame: string) => void frames.push(frame) } : {}),
  };
  return { sink, starts, frames };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('startWaitPings', () => {
  it('sends nothing before the interval, then the headers once and a frame per interval until stopped', () => {
    const { sink, starts, frames } = recordingSink();
    const pings = startWaitPings(sink, FRAME, 'text/event-stream', 1000);
    vi.advanceTimersByTime(999);
    expect(starts).toEqual([]);
    expect(frames).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(starts).toEqual([[200, 'text/event-stream']]);
    expect(frames).toEqual([FRAME]);
    vi.advanceTimersByTime(2000);
    expect(frames).toHaveLength(3);
    expect(starts).toHaveLength(1);
    pings.stop();
    vi.advanceTimersByTime(5000);
    expect(frames).toHaveLength(3);
  });

  it('does nothing when the interval is 0, the family has no frame, or the output cannot send one', () => {
    for (const [frame, interval, keepAlive] of [
      [FRAME, 0, true],
      [undefined, 1000, true],
      [FRAME, 1000, false],
    ] as const) {
      const { sink, starts, frames } = recordingSink(keepAlive);
      startWaitPings(sink, frame, 'text/event-stream', interval);
      vi.advanceTimersByTime(10_000);
      expect(starts).toEqual([]);
      expect(frames).toEqual([]);
    }
  });
});
