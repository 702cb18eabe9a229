/**
 * Embeddings on an OpenAI-compatible server: `POST <base>/embeddings`.
 * An OpenAI client's body goes as it is (model mapping aside); a request of
 * another dialect is sent as plain strings with float vectors back.
 */
import type { EmbeddingRequest, EmbeddingResponse } from '../../../core/embedding.js';
import { GatewayError } from '../../../core/errors.js';
import { firstHeader } from '../../headers.js';
import { joinUrl, parseJsonAnswer } from '../../http.js';
import { requestWholeOk } from '../../whole-answer.js';
import { limitsOf } from '../../../core/upstream-limits.js';
import { bodyForUpstreamModel } from '../../pass-through.js';
import { throwChatCompletionsStatus } from './errors.js';
import type { EmbeddingPassThroughResult, PassThroughRequest, UpstreamCall } from '../../types.js';
import { chatCompletionsHeaders } from '../../openai-chat/endpoint.js';
import { callExchange } from '../../call-exchange.js';

interface EmbeddingList {
  data?: Array<{ index?: number; embedding?: number[] | string }>;
  usage?: { prompt_tokens?: number };
}

/** One exchange, its answer gathered whole (within the channel's bound). */
function send(call: UpstreamCall, body: string | Buffer) {
  return requestWholeOk(callExchange(call, joinUrl(call.channel.baseUrl, '/embeddings'), chatCompletionsHeaders(call), body, throwChatCompletionsStatus), limitsOf(call).maxBodyBytes);
}

export async function openAiEmbeddings(request: EmbeddingRequest, call: UpstreamCall): Promise<EmbeddingResponse> {
  const body: Record<string, unknown> = { model: call.upstreamModel, input: request.inputs, encoding_format: 'float' };
  if (request.dimensions !== undefined) body.dimensions = request.dimensions;
  const json = parseJsonAnswer<EmbeddingList>((await send(call, JSON.stringify(body))).bytes);
  const rows = [...(json.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  const vectors = rows.map((row) => row.embedding);
  if (vectors.length !== request.inputs.length || !vectors.every(Array.isArray)) throw new GatewayError('upstream_error', 'upstream answered an embeddings request without one float vector per input');
  return { vectors: vectors as number[][], inputTokens: json.usage?.prompt_tokens };
}

export async function openAiEmbeddingsPassThrough(request: PassThroughRequest, call: UpstreamCall): Promise<EmbeddingPassThroughResult> {
  const res = await send(call, bodyForUpstreamModel(request, call));
  const body = res.bytes;
  let inputTokens: number | undefined;
  try {
    inputTokens = (JSON.parse(body.toString('utf8')) as EmbeddingList).usage?.prompt_tokens;
  } catch {
    throw new GatewayError('upstream_error', 'upstream answered an embeddings request with a body that is not JSON', { retryable: true });
  }
  return { status: res.status, contentType: firstHeader(res.headers, 'content-type') ?? 'application/json', body, inputTokens };
}
