/**
 * The output a batch line is served into: the same request paths an HTTP
 * request takes write their plain answer or their error here, and the batch
 * runner keeps it as the line's answer. Batch lines are never streamed.
 */
import { GatewayError } from '../core/errors.js';
import type { ClientKey } from '../http/auth.js';
import type { ChatOutput, StreamSink } from './chat-output.js';
import type { RenderedError } from './types.js';

/** A line's answer: the HTTP status and the parsed JSON body, as the family wrote them. */
export interface RecordedAnswer {
  status: number;
  body: unknown;
}

const noStream: StreamSink = {
  hasStarted: false,
  start() {
    throw new GatewayError('invalid_request', 'a batch line cannot be streamed', { param: 'stream' });
  },
  async write() {
    return false;
  },
  end() {},
};

export class RecordedOutput implements ChatOutput {
  private recorded?: RecordedAnswer;
  readonly gone = false;
  readonly stream = noStream;

  watchClient(): void {}

  header(): void {}

  send(status: number, contentType: string, body: string | Buffer): void {
    const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
    let parsed: unknown = text;
    if (contentType.includes('json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        // Kept as text: the file shows what the upstream sent.
      }
    }
    this.recorded = { status, body: parsed };
  }

  sendError(rendered: RenderedError): void {
    this.recorded = { status: rendered.status, body: rendered.body };
  }

  /** What the path wrote, or undefined when it wrote nothing. */
  get answer(): RecordedAnswer | undefined {
    return this.recorded;
  }
}

/** Serves one batch line through `serve` and keeps what it wrote; a throw is rendered by `renderError`, as the family's routes would. */
export async function recordAnswer(
  requestId: string,
  serve: (output: RecordedOutput) => Promise<void>,
  renderError: (error: GatewayError, requestId: string) => RenderedError,
): Promise<RecordedAnswer> {
  const output = new RecordedOutput();
  try {
    await serve(output);
  } catch (error) {
    const rendered = renderError(error instanceof GatewayError ? error : new GatewayError('internal', `internal error; quote request id ${requestId} to the operator`, { cause: error }), requestId);
    return { status: rendered.status, body: rendered.body };
  }
  return output.answer ?? { status: 500, body: renderError(new GatewayError('internal', `internal error; quote request id ${requestId} to the operator`), requestId).body };
}

/** One batch line, as a family's batch handler serves it: the batch key's, never streamed. */
export interface BatchLineCall {
  /** The line's request id: its request-log row's, and `request_id` in the output. */
  requestId: string;
  key: ClientKey;
  body: Record<string, unknown>;
}

export type BatchLineHandler = (call: BatchLineCall) => Promise<RecordedAnswer>;

/** Where a batch line's call says it came from: no client address, no headers. */
export function batchOrigin(call: BatchLineCall) {
  return { id: call.requestId, ip: '', headers: {} };
}
