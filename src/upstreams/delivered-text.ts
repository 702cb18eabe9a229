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

/** One list of pieces in order and how many of them are committed: a commit moves nothing. */
export class DeliveredText implements DeliveredSoFar {
  private readonly pieces: string[] = [];
  private committed = 0;

  /** A piece an event carries; anything but a non-empty string (a missing field) is nothing. */
  add(piece: unknown): void {
    if (typeof piece === 'string' && piece !== '') this.pieces.push(piece);
  }

  commit(): void {
    this.committed = this.pieces.length;
  }

  text(): string {
    const pieces = this.pieces;
    return this.committed === pieces.length ? pieces.join('') : pieces.slice(0, this.committed).join('');
  }
}
