/**
 * The pass-through stream guard (src/upstreams/pass-through-stream.ts): bytes
 * go out untouched, only up to the last complete event; a bad event, garbage,
 * a stream over its bounds or one without its last event fails, and the chunk
 * that carried the bad bytes never goes out.
 */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/errors.js';
import { DEFAULT_UPSTREAM_LIMITS, type UpstreamLimits } from '../../../src/core/upstream-limits.js';
import { forwardEvents, type StreamTap } from '../../../src/upstreams/pass-through-stream.js';
import type { SseEvent } from '../../../src/upstreams/sse.js';

/** Ends at an event named `end`; remembers what it saw. */
class TestTap implements StreamTap {
  seen: unknown[] = [];
  private done = false;
  see(event: SseEvent, data: unknown): void {
    this.seen.push(data);
    if (event.event === 'end') this.done = true;
  }
  ended(): boolean {
    return this.done;
  }
  usage() {
    return undefined;
  }
  id() {
    return undefined;
  }
}

async function* pieces(...texts: Array<string | Buffer>): AsyncGenerator<Uint8Array> {
  for (const text of texts) yield typeof text === 'string' ? Buffer.from(text) : text;
}

async function run(texts: Array<string | Buffer>, limits: UpstreamLimits = DEFAULT_UPSTREAM_LIMITS) {
  const out: string[] = [];
  const tap = new TestTap();
  let error: unknown;
  try {
    for await (const chunk of forwardEvents(pieces(...texts), tap, limits, undefined)) out.push(Buffer.from(chunk).toString('utf8'));
  } catch (thrown) {
    error = thrown;
  }
  return { out, tap, error: error as GatewayError | undefined };
}

const end = 'event: end\ndata: {}\n\n';

describe('forwardEvents', () => {
  it('hands chunks that end on event boundaries on as they are, and reads every event once', async () => {
    const { out, tap, error } = await run(['data: {"a":1}\n\n', ': comment\n\ndata: {"b":2}\n\n', end]);
    expect(error).toBeUndefined();
    expect(out).toEqual(['data: {"a":1}\n\n', ': comment\n\ndata: {"b":2}\n\n', end]);
    expect(tap.seen).toEqual([{ a: 1 }, { b: 2 }, {}]);
  });

  it('holds a partial event back until it is complete, whatever the line endings', async () => {
    const { out, error } = await run(['data: {"a":1}\n\ndata: {"b"', ':2}\n\n', 'data: {"c":3}\r\n\r', '\n', 'event: end\r\ndata: {}\r\n\r\n']);
    expect(error).toBeUndefined();
    // The blank line of the third event straddles two chunks.
    expect(out).toEqual(['data: {"a":1}\n\n', 'data: {"b":2}\n\n', 'data: {"c":3}\r\n\r\n', 'event: end\r\ndata: {}\r\n\r\n']);
  });

  it('lets an [DONE] marker through', async () => {
    const { error } = await run(['data: {"a":1}\n\n', end, 'data: [DONE]\n\n']);
    expect(error).toBeUndefined();
  });

  it.each([
    ['garbage bytes', '\u0000\u00ff garbage }{\n\n', 'not part of a server-sent event stream'],
    ['an event whose JSON is cut', 'data: {"type":"delta","text":"he\n\n', 'malformed'],
  ])('fails on %s, without passing the chunk that carried them', async (_name, bad, message) => {
    const { out, error } = await run(['data: {"a":1}\n\n', `data: {"b":2}\n\n${bad}`, end]);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error!.message).toContain(message);
    expect(error!.retryable).toBe(true);
    expect(out).toEqual(['data: {"a":1}\n\n']);
  });

  it('fails a stream that ends before its last event, or inside an event, without passing the cut event', async () => {
    const clean = await run(['data: {"a":1}\n\n', 'data: {"b":2}\n\n']);
    expect(clean.error!.message).toContain('ended before its last event');
    expect(clean.out).toEqual(['data: {"a":1}\n\n', 'data: {"b":2}\n\n']);
    const cut = await run(['data: {"a":1}\n\n', 'data: {"b":']);
    expect(cut.error!.message).toContain('malformed');
    expect(cut.out).toEqual(['data: {"a":1}\n\n']);
  });

  it('passes the bytes after the last event when it ends without its blank line', async () => {
    const { out, error } = await run(['data: {"a":1}\n\n', 'event: end\ndata: {}\n']);
    expect(error).toBeUndefined();
    expect(out.join('')).toBe('data: {"a":1}\n\nevent: end\ndata: {}\n');
  });

  it('stops at the stream bound and at the event bound', async () => {
    const limits = { maxBodyBytes: 1000, maxStreamBytes: 100, maxEventBytes: 50 };
    const total = await run(['data: {"a":1}\n\n'.repeat(5), 'data: {"a":1}\n\n'.repeat(5)], limits);
    expect(total.error!.message).toContain('the upstream stream is larger than the gateway accepts (100 bytes)');
    const event = await run([`data: {"a":"${'x'.repeat(60)}`], limits);
    expect(event.error!.message).toContain('an upstream stream event is larger than the gateway accepts (50 bytes)');
  });
});
