/**
 * One structured access-log line per request on stdout (through the
 * gateway's logger), written when the response is finished or the client
 * left: method, path, status, duration, request id, and, for requests that
 * were routed, the key's name, the model, the channel and the attempts. The
 * request's trace span, when traces are on, ends at the same moment and reads
 * the same note. What only the pipeline knows is noted by request id at
 * settlement and taken back when the request ends, so nothing is kept after
 * the request.
 */
export interface RouteNote {
  key?: string;
  model?: string;
  /** The channel's id. */
  channel?: string;
  attempts?: number;
  /** What the trace span adds: the client family, the GenAI operation, the model asked upstream, the tokens (when answered). */
  family?: string;
  operation?: 'chat' | 'text_completion' | 'embeddings' | 'rerank' | 'moderations' | 'image_generation' | 'speech' | 'transcription';
  upstreamModel?: string;
  inputTokens?: number;
  outputTokens?: number;
}

const MAX_PENDING_NOTES = 10_000;

export class AccessNotes {
  private readonly notes = new Map<string, RouteNote>();
  /** Whether anything reads the notes; when nothing does, none is kept. */
  readonly enabled: boolean;

  constructor(
    /** An access-log line is written per request. */
    readonly logged: boolean,
    /** A trace span is ended per request. */
    readonly traced = false,
  ) {
    this.enabled = logged || traced;
  }

  note(requestId: string, note: RouteNote): void {
    if (!this.enabled) return;
    // A note made after its line was written (a client that left before settlement) is never taken: bound them.
    if (this.notes.size >= MAX_PENDING_NOTES) this.notes.clear();
    this.notes.set(requestId, note);
  }

  take(requestId: string): RouteNote | undefined {
    const note = this.notes.get(requestId);
    if (note) this.notes.delete(requestId);
    return note;
  }
}
