/** The upstream SSE reader (src/upstreams/sse.ts). */
import { describe, expect, it } from 'vitest';
import { readSse } from '../../../src/upstreams/sse.js';
import { collect } from './fold-events.js';

async function* pieces(...texts: string[]): AsyncGenerator<Uint8Array> {
  for (const text of texts) yield Buffer.from(text);
}

describe('readSse', () => {
  it('accepts LF, CRLF and CR line endings, event names and comments', async () => {
    const events = await collect(readSse(pieces(': keep-alive\n\n', 'event: a\ndata: 1\n\n', 'event: b\r\ndata: 2\r\n\r\n', 'data: 3\r\r')));
    expect(events.map(({ event, data }) => ({ event, data }))).toEqual([
      { event: 'a', data: '1' },
      { event: 'b', data: '2' },
      { event: undefined, data: '3' },
    ]);
  });

  it('joins multi-line data and survives lines and UTF-8 characters split across chunks', async () => {
    const bytes = Buffer.from('data: {"t":"héllo"}\ndata: more\n\n');
    const split = [bytes.subarray(0, 12), bytes.subarray(12, 15), bytes.subarray(15)];
    async function* chunks() {
      yield* split;
    }
    expect((await collect(readSse(chunks()))).map((event) => event.data)).toEqual(['{"t":"héllo"}\nmore']);
  });

  it('dispatches a last event that lacks its blank line', async () => {
    expect((await collect(readSse(pieces('data: a\n\ndata: b\n')))).map((event) => event.data)).toEqual(['a', 'b']);
  });
});

describe('readSse, untrusted bytes', () => {
  it('fails on a line that is no SSE field, and ignores a bad retry value', async () => {
    await expect(collect(readSse(pieces('data: 1\n\n', 'garbage\n\n')))).rejects.toThrow('not part of a server-sent event stream');
    expect((await collect(readSse(pieces('retry: soon\ndata: 1\n\n')))).map((event) => event.data)).toEqual(['1']);
  });

  it('stops at the event and stream bounds', async () => {
    const limits = { maxBodyBytes: 1000, maxStreamBytes: 40, maxEventBytes: 16 };
    await expect(collect(readSse(pieces(`data: ${'x'.repeat(20)}`), limits))).rejects.toThrow('an upstream stream event is larger');
    await expect(collect(readSse(pieces('data: 1\n\n'.repeat(3), 'data: 2\n\n'.repeat(3)), limits))).rejects.toThrow('the upstream stream is larger');
  });
});
