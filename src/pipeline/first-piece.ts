/**
 * A streamed answer is waited on until its first piece arrives, inside the
 * failover attempt: an upstream that sends its headers and then stays silent
 * (or breaks) before anything reached the client is that channel's failure,
 * and the next one is tried. The piece read is handed back first.
 */
export async function afterFirstPiece<T>(source: AsyncIterable<T>): Promise<AsyncIterable<T>> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  return resumed(first, iterator);
}

/** The iterator again, its first result replayed: no generator in between, so no extra promise per piece. */
function resumed<T>(first: IteratorResult<T>, iterator: AsyncIterator<T>): AsyncIterable<T> {
  let replay: IteratorResult<T> | undefined = first;
  const again: AsyncIterator<T> = {
    next() {
      if (!replay) return iterator.next();
      const result = replay;
      replay = undefined;
      return Promise.resolve(result);
    },
    return(value?: unknown) {
      replay = undefined;
      return iterator.return ? iterator.return(value) : Promise.resolve({ done: true, value: undefined });
    },
  };
  return { [Symbol.asyncIterator]: () => again };
}
