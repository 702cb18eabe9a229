/**
 * What a pass-through stream's client received: the text, tool-call
 * arguments and reasoning the events carried. A tap adds each event's pieces
 * as it reads them (before their bytes are written); the pipeline commits
 * them once the chunk holding those events was written to the client. Pieces
 * of a chunk never written (the stream failed inside it, the client was
 * gone) are never counted. Pieces are kept as they come and joined once, when
 * a settlement needs them (a stream cut before its final usage).
 */
export interface DeliveredSoFar {
  /** The chunk holding every event read so far reached the client. */
  commit(): void;
  /** Everything committed, in order. */
  text(): string;
}

export class DeliveredText implements DeliveredSoFar {
  private pending: string[] = [];
  private readonly kept: string[] = [];

  /** A piece an event carries; anything but a non-empty string (a missing field) is nothing. */
  add(piece: unknown): void {
    if (typeof piece === 'string' && piece !== '') this.pending.push(piece);
  }

  commit(): void {
    const pending = this.pending;
    if (pending.length === 0) return;
    for (let i = 0; i < pending.length; i++) this.kept.push(pending[i]!);
    this.pending = [];
  }

  text(): string {
    return this.kept.join('');
  }
}
