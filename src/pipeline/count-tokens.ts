/**
 * The path every token-counting request takes after its family parsed and
 * validated it. It is routed like a chat request (key, model allow-list,
 * quota, requests-per-minute, channels by priority and weight, failover on
 * connect errors, 429 and 5xx) but nothing is generated:
 * - a channel speaking the client's dialect natively counts with its own
 *   counting endpoint, and its answer goes back byte for byte;
 * - anywhere else (translation, the simulator, an upstream answering 404 for
 *   counting) the gateway's tokenizer counts the request, and the answer says
 *   so in `x-switchyard-estimated: true`.
 * A count costs nothing and consumes no tokens-per-minute: its request-log
 * row has no tokens and no cost, only whether the count was estimated
 * (`settleCount`). The steps it shares with the other paths are in
 * request-flow.ts; it takes the narrow services and output, not the gateway.
 */
import type { Attempt } from '../core/attempt.js';
import type { ChatRequest, Dialect } from '../core/chat.js';
import { GatewayError } from '../core/errors.js';
import { countRequestTokens } from '../core/tokens.js';
import { withFailover } from '../routing/failover.js';
import type { ClientKey } from '../http/auth.js';
import type { Channel } from '../core/channel.js';
import type { CountTokensResult, PassThroughRequest } from '../upstreams/types.js';
import { nativeAdapter } from '../upstreams/native-adapter.js';
import type { RequestOutput } from './chat-output.js';
import { abortOnGone, admitted, failPlain, failoverOptions, routedFields } from './request-flow.js';
import type { RequestServices } from './services.js';
import type { RenderedError } from './types.js';

export const ESTIMATED_HEADER = 'x-switchyard-estimated';

/** How one family speaks counting: its dialect, its answer and its error shape. */
export interface CountCodec {
  /** The family name written to request logs, e.g. `messages.count_tokens`. */
  readonly family: string;
  readonly dialect: Dialect;
  /** The family's answer for a count the gateway made itself. */
  renderCount(inputTokens: number): unknown;
  renderError(error: GatewayError, requestId: string): RenderedError;
}

/** One authenticated, validated counting request, ready for routing. */
export interface CountCall {
  requestId: string;
  key: ClientKey;
  clientIp: string;
  headers: Record<string, string | string[] | undefined>;
  model: string;
  startedAt: number;
  /** The request a native channel receives (the adapter maps the model name). */
  nativeRequest(channel: Channel): PassThroughRequest | Promise<PassThroughRequest>;
  /** The internal request the gateway's tokenizer counts. */
  toCore(): ChatRequest | Promise<ChatRequest>;
}

type Counted = { kind: 'forwarded'; result: CountTokensResult } | { kind: 'estimate' };

export async function serveCountTokens(services: RequestServices, call: CountCall, codec: CountCodec, output: RequestOutput): Promise<void> {
  const attempts: Attempt[] = [];
  const abort = abortOnGone(output);
  let target: { channel: Channel; upstreamModel: string } | undefined;
  let httpStatus: number;
  let estimated = false;
  let error: GatewayError | undefined;

  try {
    // A count holds no quota: it costs nothing.
    const admission = admitted(services, call.key, call.model);
    if (admission) await admission;
    const candidates = services.candidates(call.model);
    const attempt = await withFailover(candidates, failoverOptions(services, call, attempts, abort.signal), async (next): Promise<Counted> => {
      const adapter = nativeAdapter(services.adapter(next.channel.type), codec.dialect, next.channel, call.model);
      if (!adapter?.countTokens) return { kind: 'estimate' };
      const upstreamCall = services.upstreamCall(next, call, abort.signal);
      try {
        return { kind: 'forwarded', result: await adapter.countTokens!(await call.nativeRequest(next.channel), upstreamCall) };
      } catch (thrown) {
        // An upstream without a counting endpoint (or without this model's): the gateway counts instead.
        if (thrown instanceof GatewayError && thrown.upstreamStatus === 404) return { kind: 'estimate' };
        throw thrown;
      }
    });
    target = attempt.target;
    if (attempt.value.kind === 'forwarded') {
      const { result } = attempt.value;
      output.send(result.status, result.contentType, result.body);
      httpStatus = result.status;
    } else {
      const inputTokens = countRequestTokens(await call.toCore());
      estimated = true;
      output.header(ESTIMATED_HEADER, 'true');
      output.send(200, 'application/json', JSON.stringify(codec.renderCount(inputTokens)));
      httpStatus = 200;
    }
  } catch (thrown) {
    error = failPlain(services, output, thrown, call, codec, 'count');
    httpStatus = error.status;
  }

  services.settleCount({ ...routedFields(call, codec.family, target, attempts), httpStatus, error, estimated });
}
