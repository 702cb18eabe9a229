/**
 * The abort signal of one client request (its upstream calls stop when the
 * client leaves). Node's AbortSignal is an EventTarget with two maps, and
 * under load every one of them outlived the young generation: 700 bytes a
 * request into the old space and 6 % of a request's CPU (bench/README.md).
 * This is the part of AbortSignal the gateway and undici use (undici, like
 * Node's own APIs, takes any object with `aborted` and `addEventListener`);
 * a real AbortSignal fits the same type, so task calls pass theirs.
 */
export interface CallSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

type Listener = (this: CallSignal, event: { type: 'abort' }) => void;

/** A signal and its controller in one plain object. */
export class CallAbort implements CallSignal {
  aborted = false;
  reason: unknown = undefined;
  private listeners: Listener[] | undefined;

  get signal(): CallSignal {
    return this;
  }

  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    // Every listener runs once: the signal aborts only once.
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener.call(this, { type: 'abort' });
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  addEventListener(type: 'abort', listener: Listener): void {
    if (type !== 'abort' || this.aborted) return;
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: Listener): void {
    const index = this.listeners?.indexOf(listener) ?? -1;
    if (index !== -1) this.listeners!.splice(index, 1);
  }
}
