/**
 * An upstream answer wanted whole (a plain, not streamed, answer): sent with
 * undici's `dispatch` and gathered by a handler as its chunks arrive, so no
 * body stream is made. `request()`'s body is a Readable whose events and
 * ticks cost several microseconds a request (bench/README.md); a plain
 * answer is read to its end before anyone looks at it anyway.
 *
 * Plain JSON answers are read this way (chat adapters, the pass-through,
 * embeddings, task clients); `requestOk` is for answers the caller streams or
 * reads under a bound of its own (downloads, token counts). The contract is
 * `requestOk`'s plus a bound: a non-2xx answer
 * throws the error its status and body describe (its first 64 KiB kept), a
 * success larger than `maxBytes` aborts the exchange with a retryable error,
 * and transport failures, timeouts and the caller's abort become the same
 * GatewayErrors.
 */
import type { Agent, Dispatcher } from 'undici';
import type { CallSignal } from '../core/call-signal.js';
import { tooLarge } from '../core/upstream-limits.js';
import { MAX_ERROR_BODY_BYTES, throwForStatus, type StatusThrower } from './error-answer.js';
import type { UpstreamHeaders } from './headers.js';
import { exchangeOptions, isSuccess, parseJsonAnswer, sharedAgent, toUpstreamError, type UpstreamRequestOptions } from './http.js';
import { WholeBody } from './whole-body.js';

export interface WholeAnswer {
  status: number;
  headers: UpstreamHeaders;
  bytes: Buffer;
}

export async function requestWholeOk(opts: UpstreamRequestOptions & { secrets: readonly string[]; throwStatus?: StatusThrower }, maxBytes: number): Promise<WholeAnswer> {
  const options = exchangeOptions(opts);
  const answer = await new Promise<WholeAnswer>((resolve, reject) => {
    const exchange = new WholeExchange(opts.signal, maxBytes, resolve, reject);
    const agent = sharedAgent();
    if (agent instanceof Promise)
      agent.then(
        (made) => dispatch(made, options, exchange),
        (error: unknown) => reject(toUpstreamError(error, opts.signal)),
      );
    else dispatch(agent, options, exchange);
  });
  if (!isSuccess(answer.status)) await (opts.throwStatus ?? throwForStatus)(answer.status, answer.headers, new WholeBody(answer.bytes), opts.secrets);
  return answer;
}

/** `requestWholeOk` for a JSON answer, parsed (malformed JSON is the upstream's retryable fault). */
export async function requestJsonOk<T>(opts: UpstreamRequestOptions & { secrets: readonly string[]; throwStatus?: StatusThrower }, maxBytes: number): Promise<T> {
  return parseJsonAnswer<T>((await requestWholeOk(opts, maxBytes)).bytes);
}

function dispatch(agent: Agent, options: Dispatcher.DispatchOptions, exchange: WholeExchange): void {
  try {
    agent.dispatch(options, exchange as unknown as Dispatcher.DispatchHandler);
  } catch (error) {
    exchange.onError(error);
  }
}

/**
 * undici's handler for one exchange: its methods on the prototype, so an
 * exchange makes one object, not a closure per event.
 */
class WholeExchange {
  private status = 0;
  private headers: UpstreamHeaders = {};
  private readonly chunks: Buffer[] = [];
  /** Bytes received, and of a non-2xx answer's the ones kept (its first 64 KiB). */
  private received = 0;
  private kept = 0;
  private overflow: Error | undefined;
  private abortExchange: ((reason?: unknown) => void) | undefined;
  private settled = false;
  private readonly onAbort = () => this.abortExchange?.(this.signal.reason);

  constructor(
    private readonly signal: CallSignal,
    private readonly maxBytes: number,
    private readonly resolve: (answer: WholeAnswer) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  onConnect(abort: (reason?: unknown) => void): void {
    this.abortExchange = abort;
    if (this.signal.aborted) abort(this.signal.reason);
    else this.signal.addEventListener('abort', this.onAbort);
  }

  onHeaders(status: number, rawHeaders: Buffer[]): boolean {
    this.status = status;
    this.headers = parseRawHeaders(rawHeaders);
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.received += chunk.length;
    if (this.received > this.maxBytes) {
      // A success over the bound is refused; a non-2xx answer keeps what came (onError).
      if (isSuccess(this.status)) this.overflow = tooLarge('the upstream answer', this.maxBytes);
      this.abortExchange?.(this.overflow ?? new Error('error body over the bound'));
      return false;
    }
    if (isSuccess(this.status)) this.chunks.push(chunk);
    else if (this.kept < MAX_ERROR_BODY_BYTES) {
      const part = chunk.subarray(0, MAX_ERROR_BODY_BYTES - this.kept);
      this.chunks.push(part);
      this.kept += part.length;
    }
    return true;
  }

  onComplete(): void {
    if (this.settled) return;
    this.settle();
    this.resolve({ status: this.status, headers: this.headers, bytes: this.bytes() });
  }

  onError(error: unknown): void {
    if (this.settled) return;
    this.settle();
    // A non-2xx answer cut while its body arrived is still that answer: keep what came.
    if (this.status !== 0 && !isSuccess(this.status)) return this.resolve({ status: this.status, headers: this.headers, bytes: this.bytes() });
    this.reject(this.overflow ?? toUpstreamError(error, this.signal));
  }

  private settle(): void {
    this.settled = true;
    this.signal.removeEventListener('abort', this.onAbort);
  }

  private bytes(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
  }
}

/** undici's raw header list as `request()` gives it: lower-case names, repeated ones as arrays, latin1 values. */
function parseRawHeaders(raw: Buffer[]): UpstreamHeaders {
  const headers: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toString('latin1').toLowerCase();
    const value = raw[i + 1]!.toString('latin1');
    const seen = headers[name];
    if (seen === undefined) headers[name] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else headers[name] = [seen, value];
  }
  return headers;
}
