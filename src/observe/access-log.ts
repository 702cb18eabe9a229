/**
 * One structured access-log line per request on stdout (through the
 * gateway's logger), written when the response is finished or the client
 * left: method, path, status, duration, request id, and, for requests that
 * were routed, the key's name, the model, the channel and the attempts. What
 * only the pipeline knows is noted by request id at settlement and taken
 * back when the line is written, so nothing is kept after the request.
 */
export interface RouteNote {
  key?: string;
  model?: string;
  channel?: string;
  attempts?: number;
}

const MAX_PENDING_NOTES = 10_000;

export class AccessNotes {
  private readonly notes = new Map<string, RouteNote>();

  constructor(readonly enabled: boolean) {}

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
