/**
 * OpenAI's audio endpoints on a server that has them (`<base>/audio/speech`,
 * `<base>/audio/transcriptions`, `<base>/audio/translations`): the client's
 * body passed as it is (speech's JSON, or the form with the same parts)
 * naming the channel's upstream model; the answer's bytes go back as they
 * come, within the channel's stream bound, and billing reads them on the
 * way: a WAV or PCM answer's seconds, a transcription's `usage` or
 * `duration`, a streamed transcript's
 * `transcript.text.done` usage. A protocol builds one where its provider declares an address.
 */
import { limitsOf, capBytes } from '../core/upstream-limits.js';
import { PCM_BYTES_PER_SECOND, wavSeconds } from '../dialects/openai-audio/wav.js';
import { transcriptUsage, type AudioBody, type AudioOperationName, type AudioPassThroughResult, type AudioUsage } from '../dialects/openai-audio/wire.js';
import { callExchange } from './call-exchange.js';
import { requestOk } from './http.js';
import { whenHeaders, type Endpoint, type EndpointHeaders, type RequestHeaders } from './endpoint.js';
import type { StatusThrower } from './error-answer.js';
import { firstHeader } from './headers.js';
import { addressAt, type OperationAddress } from './plain-pass-through.js';
import type { AudioOperation, UpstreamCall } from './types.js';

interface Sender {
  endpoint: Endpoint<unknown> & { headers(call: UpstreamCall): EndpointHeaders };
  /** The audio base (`<base>/audio`): each operation's path is under it. */
  address: OperationAddress;
  throwStatus: StatusThrower;
}

/** A transcription answer is small: this much of it is kept to read its usage (the rest still goes to the client). */
const MAX_READ_BYTES = 1024 * 1024;
/** A WAV's chunks before its samples fit in this. */
const WAV_HEAD_BYTES = 4096;

export function audioPassThrough(sender: Sender): AudioOperation {
  return {
    offered: (channel) => sender.address.offered(channel),
    passThrough: (operation, body, call) => whenHeaders(sender.endpoint.headers(call), exchange, sender, { operation, body }, call),
  };
}

async function exchange(headers: RequestHeaders, sender: Sender, asked: { operation: AudioOperationName; body: AudioBody }, call: UpstreamCall): Promise<AudioPassThroughResult> {
  const url = addressAt(sender.address, call, `/${asked.operation}`);
  const body = asked.body.withModel(call.upstreamModel);
  const res = await requestOk(callExchange(call, url, { ...headers, 'content-type': body.contentType }, body.bytes, sender.endpoint.throwStatus ?? sender.throwStatus));
  const contentType = firstHeader(res.headers, 'content-type') ?? (asked.operation === 'speech' ? 'application/octet-stream' : 'application/json');
  const meter = new AnswerMeter(asked.operation === 'speech' ? WAV_HEAD_BYTES : MAX_READ_BYTES);
  return { status: res.status, contentType, chunks: meter.tap(capBytes(res.body, limitsOf(call).maxStreamBytes, 'the audio answer')), read: () => meter.read(asked.operation, contentType) };
}

/** Keeps an answer's head and counts its bytes as they go by. */
class AnswerMeter {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private total = 0;

  constructor(private readonly keep: number) {}

  async *tap(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of chunks) {
      this.total += chunk.byteLength;
      if (this.headBytes < this.keep) {
        const part = Buffer.from(chunk.subarray(0, this.keep - this.headBytes));
        this.head.push(part);
        this.headBytes += part.byteLength;
      }
      yield chunk;
    }
  }

  read(operation: AudioOperationName, contentType: string): AudioUsage {
    const head = Buffer.concat(this.head);
    if (operation === 'speech') {
      const seconds = wavSeconds(head, this.total);
      if (seconds !== undefined) return { seconds };
      return contentType.startsWith('audio/pcm') ? { seconds: this.total / PCM_BYTES_PER_SECOND } : {};
    }
    if (this.total > this.keep) return {};
    const text = head.toString('utf8');
    if (contentType.startsWith('text/event-stream')) return transcriptUsage(doneEvent(text));
    if (!contentType.includes('json')) return {};
    try {
      return transcriptUsage(JSON.parse(text));
    } catch {
      return {};
    }
  }
}

/** A streamed transcription's `transcript.text.done` event, whose `usage` the bill reads. */
function doneEvent(text: string): unknown {
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:') || !line.includes('transcript.text.done')) continue;
    try {
      return JSON.parse(line.slice(5));
    } catch {
      return undefined;
    }
  }
  return undefined;
}
