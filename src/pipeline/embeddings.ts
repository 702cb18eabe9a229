/**
 * Embeddings on the plain-operation path (plain-operation.ts): routed like
 * rerank and moderations among the channels whose upstream type computes
 * embeddings. An OpenAI-dialect body reaches an upstream whose own endpoint
 * is OpenAI's untouched (pass-through); anywhere else the internal request is
 * sent. Requests only pass-through can serve (token-array inputs) are routed
 * to such channels only, decided before routing. Billed per input token.
 */
import type { EmbeddingRequest, EmbeddingResponse } from '../core/embedding.js';
import { type GatewayError, invalidRequest } from '../core/errors.js';
import type { PassThroughRequest, PlainOperation, UpstreamAdapter } from '../upstreams/types.js';
import type { RequestOutput } from './chat-output.js';
import { type PlainCall, servePlainOperation } from './plain-operation.js';
import type { RequestServices } from './services.js';
import type { RenderedError } from './types.js';

export interface EmbeddingCodec {
  /** The family name written to request logs. */
  readonly family: string;
  render(response: EmbeddingResponse, inputTokens: number): unknown;
  renderError(error: GatewayError, requestId: string): RenderedError;
}

export interface EmbeddingCall extends Omit<PlainCall<EmbeddingRequest>, 'body'> {
  /** The client's OpenAI-dialect body, for upstreams that take it as it is. */
  openAiBody?: PassThroughRequest;
  /** Only pass-through can serve this request (e.g. token-array inputs). */
  needsPassThrough?: boolean;
}

/** What an adapter offers an embeddings request, by whether the request has an OpenAI body and needs it passed. */
interface EmbeddingOperations {
  withBody?: PlainOperation<EmbeddingRequest, EmbeddingResponse>;
  withoutBody?: PlainOperation<EmbeddingRequest, EmbeddingResponse>;
  passOnly?: PlainOperation<EmbeddingRequest, EmbeddingResponse>;
}

const offered = () => true;
const byAdapter = new WeakMap<UpstreamAdapter, EmbeddingOperations>();

/** Built once per adapter: the chosen operation is then a lookup, not an object per request. */
function operationsOf(adapter: UpstreamAdapter): EmbeddingOperations {
  let operations = byAdapter.get(adapter);
  if (operations) return operations;
  const serve = adapter.embed ? (request: EmbeddingRequest, call: Parameters<NonNullable<UpstreamAdapter['embed']>>[1]) => adapter.embed!(request, call) : undefined;
  const passThrough = adapter.embedPassThrough
    ? (request: PassThroughRequest, call: Parameters<NonNullable<UpstreamAdapter['embedPassThrough']>>[1]) => adapter.embedPassThrough!(request, call)
    : undefined;
  operations = {
    withBody: serve || passThrough ? { offered, serve, passThrough } : undefined,
    withoutBody: serve ? { offered, serve } : undefined,
    passOnly: passThrough ? { offered, passThrough } : undefined,
  };
  byAdapter.set(adapter, operations);
  return operations;
}

export function serveEmbeddings(services: RequestServices, call: EmbeddingCall, codec: EmbeddingCodec, output: RequestOutput): Promise<void> {
  const part: keyof EmbeddingOperations = call.needsPassThrough ? 'passOnly' : call.openAiBody ? 'withBody' : 'withoutBody';
  const { openAiBody, needsPassThrough, ...rest } = call;
  return servePlainOperation<EmbeddingRequest, EmbeddingResponse>(
    services,
    openAiBody ? { ...rest, body: openAiBody } : rest,
    {
      family: codec.family,
      operation: (adapter) => operationsOf(adapter)[part],
      render: codec.render,
      renderError: codec.renderError,
      noChannel: needsPassThrough ? tokenInputRefused : undefined,
    },
    output,
  );
}

function tokenInputRefused(model: string): GatewayError {
  return invalidRequest(`input given as token ids needs a channel that takes OpenAI embedding requests as they are (type openai-chat); none serves model "${model}"; send the text instead`, 'input');
}
