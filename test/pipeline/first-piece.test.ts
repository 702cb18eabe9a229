/** A streamed answer waited on until its first piece (src/pipeline/first-piece.ts). */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/errors.js';
import { afterFirstPiece } from '../../src/pipeline/first-piece.js';

function source(pieces: string[], failAt?: number) {
  const state = { pulled: 0, returned: false };
  async function* generate() {
    try {
      for (let i = 0; i < pieces.length; i++) {
        if (i === failAt) throw new GatewayError('timeout', 'upstream went silent while sending its answer', { retryable: true });
        state.pulled++;
        yield pieces[i]!;
      }
    } finally {
      state.returned = true;
    }
  }
  return { state, stream: generate() };
}

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const seen: string[] = [];
  for await (const piece of stream) seen.push(piece);
  return seen;
}

describe('afterFirstPiece', () => {
  it('reads the first piece at once and hands every piece on, the first included', async () => {
    const { state, stream } = source(['a', 'b', 'c']);
    const resumed = await afterFirstPiece(stream);
    expect(state.pulled).toBe(1);
    expect(await collect(resumed)).toEqual(['a', 'b', 'c']);
  });

  it('rejects when the first piece fails, so the attempt fails and the next channel is tried', async () => {
    const { stream } = source(['a'], 0);
    await expect(afterFirstPiece(stream)).rejects.toMatchObject({ kind: 'timeout', retryable: true });
  });

  it('a failure after the first piece reaches the reader', async () => {
    const { stream } = source(['a', 'b'], 1);
    const resumed = await afterFirstPiece(stream);
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const piece of resumed) seen.push(piece);
      })(),
    ).rejects.toMatchObject({ kind: 'timeout' });
    expect(seen).toEqual(['a']);
  });

  it('a reader that stops early ends the source', async () => {
    const { state, stream } = source(['a', 'b', 'c']);
    for await (const piece of await afterFirstPiece(stream)) if (piece === 'a') break;
    expect(state.returned).toBe(true);
    expect(state.pulled).toBe(1);
  });

  it('an empty stream stays empty', async () => {
    expect(await collect(await afterFirstPiece(source([]).stream))).toEqual([]);
  });
});
