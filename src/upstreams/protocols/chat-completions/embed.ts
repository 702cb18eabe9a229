/**
 * Embeddings on a server of the Chat Completions dialect: the endpoint's
 * `embeddings` address (`POST <base>/embeddings` for openai-chat).
 * An OpenAI client's body goes as it is (model mapping aside); a request of
 * another dialect is sent as plain strings with float vectors back.
 */
import type { EmbeddingRequest, EmbeddingResponse } from '../../../core/embedding.js';
import { GatewayError } from '../../../core/errors.js';
import { firstHeader } from '../../headers.js';
import { parseJsonAnswer } from '../../http.js';
import { requestWholeOk } from '../../whole-answer.js';
import { limitsOf } from '../../../core/upstream-limits.js';
import { throwChatCompletionsStatus } from './errors.js';
import type { EmbeddingPassThroughResult, PassThroughRequest, UpstreamCall } from '../../types.js';
import { callExchange } from '../../call-exchange.js';
import { nativeBody, whenHeaders, type RequestHeaders } from '../../endpoint.js';
import type { ChatCompletionsEndpoint } from './endpoint.js';
import type { ChatCompletionsSettings } from './settings.js';

interface EmbeddingList {
  data?: Array<{ index?: number; embedding?: number[] | string }>;
  usage?: { prompt_tokens?: number };
}

type Endpoint = ChatCompletionsEndpoint<ChatCompletionsSettings>;

/** One exchange, its answer gathered whole (within the channel's bound). */
function send(endpoint: Endpoint, call: UpstreamCall, body: string | Buffer) {
  return whenHeaders(endpoint.headers(call), exchange, endpoint, call, body);
}

function exchange(headers: RequestHeaders, endpoint: Endpoint, call: UpstreamCall, body: string | Buffer) {
  return requestWholeOk(callExchange(call, endpoint.url(call, 'embeddings'), headers, body, throwChatCompletionsStatus), limitsOf(call).maxBodyBytes);
}

/** Embeddings of any client's inputs, and an OpenAI client's body forwarded as it is, at the endpoint. */
export function chatCompletionsEmbeddings<S extends ChatCompletionsSettings>(endpoint: ChatCompletionsEndpoint<S>) {
  return {
    embed: (request: EmbeddingRequest, call: UpstreamCall) => embeddings(endpoint, request, call),
    embedPassThrough: (request: PassThroughRequest, call: UpstreamCall) => embeddingsPassThrough(endpoint, request, call),
  };
}

async function embeddings(endpoint: Endpoint, request: EmbeddingRequest, call: UpstreamCall): Promise<EmbeddingResponse> {
  const body: Record<string, unknown> = { model: call.upstreamModel, input: request.inputs, encoding_format: 'float' };
  if (request.dimensions !== undefined) body.dimensions = request.dimensions;
  const json = parseJsonAnswer<EmbeddingList>((await send(endpoint, call, JSON.stringify(endpoint.body ? endpoint.body(body, call) : body))).bytes);
  const rows = [...(json.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  const vectors = rows.map((row) => row.embedding);
  if (vectors.length !== request.inputs.length || !vectors.every(Array.isArray)) throw new GatewayError('upstream_error', 'upstream answered an embeddings request without one float vector per input');
  return { vectors: vectors as number[][], inputTokens: json.usage?.prompt_tokens };
}

async function embeddingsPassThrough(endpoint: Endpoint, request: PassThroughRequest, call: UpstreamCall): Promise<EmbeddingPassThroughResult> {
  const res = await send(endpoint, call, nativeBody(endpoint, request, call));
  const body = res.bytes;
  let inputTokens: number | undefined;
  try {
    inputTokens = (JSON.parse(body.toString('utf8')) as EmbeddingList).usage?.prompt_tokens;
  } catch {
    throw new GatewayError('upstream_error', 'upstream answered an embeddings request with a body that is not JSON', { retryable: true });
  }
  return { status: res.status, contentType: firstHeader(res.headers, 'content-type') ?? 'application/json', body, inputTokens };
}
