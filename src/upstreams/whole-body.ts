/**
 * A body already read whole: it yields its bytes once, and a deliverer that
 * knows the class takes `bytes` without iterating (no generator, no promise
 * per step). A wrapper that replaces the body replaces this with it.
 */
export class WholeBody implements AsyncIterable<Uint8Array> {
  constructor(readonly bytes: Buffer) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    yield this.bytes;
  }
}
