/**
 * Delivering the serving channel's answer to the client: a native answer's
 * bytes as they come, a translated answer rendered or encoded in the client's
 * dialect. Each returns what the settle step needs to charge the request:
 * the status, the usage the upstream reported, the text the client received.
 */
import { promptPart, type ChatEvent, type ChatResponse, type Usage } from '../core/chat.js';
import { type GatewayError, toGatewayError } from '../core/errors.js';
import { foldStream, responseToEvents } from '../core/stream-fold.js';
import type { ChatResult, PassThroughResult } from '../upstreams/types.js';
import { WholeBody } from '../upstreams/whole-body.js';
import type { ChatOutput, StreamSink } from './chat-output.js';
import type { ChatCall, ChatCodec } from './types.js';

export interface Outcome {
  httpStatus: number;
  answered: boolean;
  reported?: Partial<Usage>;
  deliveredText: () => string;
  error?: GatewayError;
}

/** No delivered text to count: a translated plain answer carries its usage, a failed request is not charged. */
export const noText = () => '';

async function readWhole(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return chunks.length === 1 ? asBuffer(chunks[0]!) : Buffer.concat(chunks);
}

function asBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** A plain answer already read whole is sent at once, as it is (no copy, no promise); anything else is delivered as it comes. */
export function deliverPassThrough(result: PassThroughResult, call: ChatCall, codec: ChatCodec, output: ChatOutput): Outcome | Promise<Outcome> {
  if (call.stream || !(result.body instanceof WholeBody)) return deliverPassThroughBody(result, call, codec, output);
  output.send(result.status, result.contentType, result.body.bytes);
  return { httpStatus: result.status, answered: true, reported: result.usage(), deliveredText: deliveredTextOf(result) };
}

/** What the client received of a pass-through answer, asked only when the final usage never came. */
function deliveredTextOf(result: PassThroughResult): () => string {
  const delivered = result.delivered;
  return delivered ? () => delivered.text() : noText;
}

/**
 * A pass-through stream's chunks are written as they come; the text the tap
 * read from a chunk's events counts as delivered once that chunk was written
 * (`delivered.commit`), which is what a stream cut before its final usage is
 * charged for.
 */
async function deliverPassThroughBody(result: PassThroughResult, call: ChatCall, codec: ChatCodec, output: ChatOutput): Promise<Outcome> {
  const writer: StreamSink = output.stream;
  if (!call.stream) {
    output.send(result.status, result.contentType, await readWhole(result.body));
    result.delivered?.commit();
    return { httpStatus: result.status, answered: true, reported: result.usage(), deliveredText: deliveredTextOf(result) };
  }
  const delivered = result.delivered;
  const deliveredText = deliveredTextOf(result);
  writer.start(result.status, result.contentType);
  try {
    for await (const chunk of result.body) {
      if (!(await writer.write(chunk))) break;
      delivered?.commit();
    }
    writer.end();
    return { httpStatus: result.status, answered: true, reported: result.usage(), deliveredText };
  } catch (thrown) {
    const error = toGatewayError(thrown);
    await writer.write(codec.createStreamEncoder(call.model).error(error));
    writer.end();
    return { httpStatus: result.status, answered: true, reported: result.usage(), deliveredText, error };
  }
}

/** A plain answer to a plain request is rendered and sent at once (a promise only if rendering waits); anything else as it comes. */
export function deliverTranslated(result: ChatResult, call: ChatCall, codec: ChatCodec, output: ChatOutput): Outcome | Promise<Outcome> {
  if (call.stream || result.stream) return deliverTranslatedEvents(result, call, codec, output);
  const { response } = result;
  const rendered = codec.renderResponse(response, call.model);
  return rendered instanceof Promise ? rendered.then((done) => sendRendered(done, response, output)) : sendRendered(rendered, response, output);
}

function sendRendered(rendered: unknown, response: ChatResponse, output: ChatOutput): Outcome {
  output.send(200, 'application/json', JSON.stringify(rendered));
  // An answer whose upstream told no usage is charged for its content, like a stream cut before its usage.
  if (response.usageUnreported) return { httpStatus: 200, answered: true, reported: undefined, deliveredText: () => contentText(response) };
  return { httpStatus: 200, answered: true, reported: response.usage, deliveredText: noText };
}

/** The text, reasoning and tool-call arguments of an answer, as the client received them. */
function contentText(response: ChatResponse): string {
  let text = '';
  for (const part of response.content) {
    if (part.type === 'text' || part.type === 'thinking') text += part.text ?? '';
    else if (part.type === 'tool_call') text += JSON.stringify(part.input);
  }
  return text;
}

async function deliverTranslatedEvents(result: ChatResult, call: ChatCall, codec: ChatCodec, output: ChatOutput): Promise<Outcome> {
  const writer: StreamSink = output.stream;
  if (!call.stream) {
    // A streamed upstream answer to a plain request: folded into one response first.
    const response = result.stream ? await foldStream(result.events) : result.response;
    const rendered = await codec.renderResponse(response, call.model);
    return sendRendered(rendered, response, output);
  }
  const events: AsyncIterable<ChatEvent> | Iterable<ChatEvent> = result.stream ? result.events : responseToEvents(result.response);
  const encoder = codec.createStreamEncoder(call.model);
  const delivered: string[] = [];
  // The prompt's counters from message_start until the final usage (finish) comes: its output count is a placeholder.
  let reported: Partial<Usage> | undefined;
  let answered = false;
  writer.start(200, codec.streamContentType);
  try {
    if (encoder.open) await writer.write(encoder.open());
    for await (const event of events) {
      answered = true;
      if (event.type === 'message_start' && event.usage) reported = promptPart(event.usage);
      else if (event.type === 'finish' && !event.unreported) reported = event.usage;
      let frame = encoder.encode(event);
      if (typeof frame !== 'string') frame = await frame;
      if (frame && !(await writer.write(frame))) break;
      // Counted once written (or held by the encoder for a later frame): the client has it.
      if (event.type === 'text_delta' || event.type === 'thinking_delta') delivered.push(event.text);
      else if (event.type === 'tool_input_delta') delivered.push(event.json);
    }
    if (encoder.close) await writer.write(encoder.close());
    writer.end();
    return { httpStatus: 200, answered, reported, deliveredText: () => delivered.join('') };
  } catch (thrown) {
    const error = toGatewayError(thrown);
    await writer.write(encoder.error(error));
    writer.end();
    return { httpStatus: 200, answered: true, reported, deliveredText: () => delivered.join(''), error };
  }
}
