/**
 * A streamed image request (`stream: true`) on a server with OpenAI's image
 * endpoints: the client's body passed as it is, the server's events
 * (`image_generation.partial_image`, `image_generation.completed`, and the
 * `image_edit.*` ones) forwarded whole as they come, each parsed once; the
 * completed events counted and their usage summed for billing. A stream
 * that breaks, or ends before as many completed images as were asked, fails
 * (the pipeline then ends it).
 */
import { limitsOf } from '../core/upstream-limits.js';
import type { ImageBody, ImageOperationName, ImageStreamResult } from '../dialects/openai-images/wire.js';
import { callExchange } from './call-exchange.js';
import type { Endpoint, EndpointHeaders, RequestHeaders } from './endpoint.js';
import type { StatusThrower } from './error-answer.js';
import { firstHeader } from './headers.js';
import { requestOk } from './http.js';
import { forwardEvents, type StreamTap } from './pass-through-stream.js';
import { addressAt, type OperationAddress } from './plain-pass-through.js';
import type { UpstreamCall } from './types.js';

export interface StreamSender {
  endpoint: Endpoint<unknown> & { headers(call: UpstreamCall): EndpointHeaders };
  address: OperationAddress;
  throwStatus: StatusThrower;
}

export async function streamImages(
  headers: RequestHeaders,
  sender: StreamSender,
  asked: { operation: ImageOperationName; body: ImageBody; expected: number },
  call: UpstreamCall,
): Promise<ImageStreamResult> {
  const body = asked.body.withModel(call.upstreamModel);
  const exchange = callExchange(
    call,
    addressAt(sender.address, call, `/${asked.operation}`),
    { ...headers, 'content-type': body.contentType },
    body.bytes,
    sender.endpoint.throwStatus ?? sender.throwStatus,
  );
  const res = await requestOk(exchange);
  const tap = new ImageStreamTap(asked.expected);
  return {
    contentType: firstHeader(res.headers, 'content-type') ?? 'text/event-stream',
    chunks: forwardEvents(res.body, tap, limitsOf(call), call.signal),
    read: () => tap.read(),
  };
}

class ImageStreamTap implements StreamTap {
  private images = 0;
  private inputTokens?: number;
  private outputTokens?: number;

  constructor(private readonly expected: number) {}

  see(event: { event?: string }, data: unknown): void {
    if (typeof data !== 'object' || data === null) return;
    const type = (data as { type?: unknown }).type ?? event.event;
    if (type !== 'image_generation.completed' && type !== 'image_edit.completed') return;
    this.images++;
    const usage = (data as { usage?: { input_tokens?: unknown; output_tokens?: unknown } }).usage;
    if (typeof usage?.input_tokens === 'number') this.inputTokens = (this.inputTokens ?? 0) + usage.input_tokens;
    if (typeof usage?.output_tokens === 'number') this.outputTokens = (this.outputTokens ?? 0) + usage.output_tokens;
  }

  ended(): boolean {
    return this.images >= this.expected;
  }

  usage() {
    return undefined;
  }

  id() {
    return undefined;
  }

  read() {
    return { images: this.images, inputTokens: this.inputTokens, outputTokens: this.outputTokens };
  }
}
