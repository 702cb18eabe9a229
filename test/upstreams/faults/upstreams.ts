/**
 * Fake upstreams for the fault tests: a healthy one that answers every chat
 * dialect from the recorded fixtures (the dialect read from the path), and
 * the faults a broken or hostile upstream produces, in the same dialects.
 */
import type { FakeReply, RecordedRequest } from '../support/fake-upstream.js';
import { fixtureText, sseFrames, type FixtureDialect } from '../support/fixtures.js';

export type UpstreamType = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini';

const dialects: Record<UpstreamType, { dialect: FixtureDialect; json: string; chunks: string }> = {
  anthropic: { dialect: 'anthropic-messages', json: 'anthropic-text.json', chunks: 'anthropic-text.chunks.txt' },
  'openai-chat': { dialect: 'openai-chat', json: 'openai-text.json', chunks: 'openai-text.chunks.txt' },
  'openai-responses': { dialect: 'openai-responses', json: 'openai-pdf-input-file.1.json', chunks: 'openai-pdf-input-file.1.chunks.txt' },
  gemini: { dialect: 'gemini', json: 'google-text.json', chunks: 'google-text.chunks.txt' },
};

/** The upstream type a request was made for, and whether it asked for a stream. */
export function requestKind(request: RecordedRequest): { type: UpstreamType; stream: boolean } {
  if (request.url.includes(':streamGenerateContent')) return { type: 'gemini', stream: true };
  if (request.url.includes(':generateContent')) return { type: 'gemini', stream: false };
  const stream = request.json<{ stream?: boolean }>().stream === true;
  if (request.url.endsWith('/chat/completions')) return { type: 'openai-chat', stream };
  if (request.url.endsWith('/responses')) return { type: 'openai-responses', stream };
  return { type: 'anthropic', stream };
}

export function okJson(type: UpstreamType): string {
  return fixtureText(dialects[type].dialect, dialects[type].json);
}

/** The recorded stream, one SSE frame per piece (Gemini frames with CRLF, as the service does). */
export function okFrames(type: UpstreamType): string[] {
  return sseFrames(dialects[type].dialect, dialects[type].chunks, type === 'gemini' ? '\r\n' : '\n');
}

/** Answers any dialect correctly. */
export function healthy(request: RecordedRequest): FakeReply {
  const { type, stream } = requestKind(request);
  return stream ? { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: okFrames(type) } : { status: 200, headers: { 'content-type': 'application/json' }, body: okJson(type) };
}

/** A fault, in whatever dialect the request was made in. */
export type Fault = (type: UpstreamType, stream: boolean) => FakeReply;

export const faultHandler = (fault: Fault) => (request: RecordedRequest) => {
  const { type, stream } = requestKind(request);
  return fault(type, stream);
};

const json = (body: string, contentType = 'application/json'): FakeReply => ({ status: 200, headers: { 'content-type': contentType }, body });
const sse = (chunks: Array<string | Buffer>, extra: Partial<FakeReply> = {}): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'text/event-stream' },
  chunks,
  ...extra,
});

/** The first frames of a stream, none of them its last event. */
function opening(type: UpstreamType): string[] {
  const frames = okFrames(type);
  return frames.slice(0, Math.min(3, frames.length - 1));
}

/**
 * Frames paced apart, so the fault lands after the first frames reached the
 * client (the stream is then cut with an error frame); a fault read with the
 * first chunk is a failed attempt, and the next channel answers.
 */
const AFTER_FIRST_FRAMES: Partial<FakeReply> = { chunkDelayMs: 15 };

function withInserted(type: UpstreamType, inserted: string): string[] {
  const frames = okFrames(type);
  return [...frames.slice(0, 2), inserted, ...frames.slice(2)];
}

export const faults = {
  /** A 200 whose JSON stops half way. */
  truncatedJson: ((type) => json(okJson(type).slice(0, Math.floor(okJson(type).length / 2)))) satisfies Fault,
  /** A 200 from something that is not the API at all. */
  htmlPage: (() => json('<html><body>502 Bad Gateway</body></html>', 'text/html')) satisfies Fault,
  /** A 200 that claims JSON and is not. */
  notJson: (() => json('upstream exploded \u0000\u00ff')) satisfies Fault,
  /** Garbage bytes between two good events. */
  garbageInStream: ((type) => sse(withInserted(type, '\u0000\u00ff@@ not an event }{\n\n'), AFTER_FIRST_FRAMES)) satisfies Fault,
  /** An event whose JSON was cut short. */
  truncatedEvent: ((type) => sse(withInserted(type, 'data: {"type":"content_block_delta","index":0,"delta":{"type":"te\n\n'), AFTER_FIRST_FRAMES)) satisfies Fault,
  /** A stream that ends cleanly before its last event. */
  endsEarly: ((type) => sse(opening(type))) satisfies Fault,
  /** A stream whose connection is reset half way. */
  resetMidStream: ((type) => sse(okFrames(type), { cutAfterChunks: 2 })) satisfies Fault,
  /** A connection reset before any header (the fake destroys the socket when its handler throws). */
  resetBeforeHeaders: ((): FakeReply => {
    throw new Error('reset');
  }) satisfies Fault,
  /** Headers later than the gateway waits. */
  slowHeaders: ((type, stream) => ({ ...(stream ? sse(okFrames(type)) : json(okJson(type))), headersDelayMs: 1500 })) satisfies Fault,
  status:
    (status: number, headers: Record<string, string> = {}): Fault =>
    () => ({
      status,
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ error: { message: `upstream says ${status}`, type: 'api_error', code: status } }),
    }),
};

/** What a generated oversized answer put on the wire before the gateway stopped reading. */
export interface Pour {
  sent: number;
  /** Whether the generator was left before its end (the peer went away). */
  stopped: boolean;
}

const MiB = 1024 * 1024;

/** An answer far over any bound, made while it is written (it is never held in memory whole). */
export function oversized(kind: 'body' | 'stream' | 'event', pour: Pour, totalBytes = 512 * MiB): Fault {
  return (type) => {
    const [head, piece] = pieces(type, kind);
    async function* source(): AsyncGenerator<Buffer> {
      let finished = false;
      try {
        yield head;
        pour.sent += head.length;
        while (pour.sent < totalBytes) {
          yield piece;
          pour.sent += piece.length;
        }
        finished = true;
      } finally {
        if (!finished) pour.stopped = true;
      }
    }
    const contentType = kind === 'body' ? 'application/json' : 'text/event-stream';
    return { status: 200, headers: { 'content-type': contentType }, source };
  };
}

/** The opening bytes and the piece repeated after them. */
function pieces(type: UpstreamType, kind: 'body' | 'stream' | 'event'): [Buffer, Buffer] {
  const filler = Buffer.alloc(64 * 1024, 'a');
  if (kind === 'body') return [Buffer.from('{"id":"x","text":"'), filler];
  const frames = okFrames(type);
  const head = Buffer.from(frames.slice(0, 2).join(''));
  if (kind === 'event') return [Buffer.concat([head, Buffer.from('data: {"text":"')]), filler];
  // Many small, valid events, none of them the last one.
  const delta = frames[1];
  return [head, Buffer.from(delta.repeat(Math.ceil((64 * 1024) / delta.length)))];
}
