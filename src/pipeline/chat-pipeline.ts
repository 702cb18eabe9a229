/**
 * The path every chat request takes after its family parsed and validated it:
 * authorize, rate-limit, pick channels, call the upstream with failover (the
 * pass-through path when the upstream speaks the client's dialect, the
 * translation path otherwise), write the answer plain or streamed, settle.
 */
import type { Attempt } from '../core/attempt.js';
import type { ChatRequest } from '../core/chat.js';
import { type GatewayError, toGatewayError } from '../core/errors.js';
import { describePlan, type TranslationPlan } from '../core/translation-plan.js';
import { upstreamModelFor } from '../core/channel.js';
import { countRequestTokens } from '../core/tokens.js';
import { openRequestState, sealEvents, sealResponse, type SealOptions } from '../core/reasoning-seal.js';
import type { ReasoningSealer } from '../core/reasoning-state.js';
import { withFailover } from '../routing/failover.js';
import { afterFirstPiece } from './first-piece.js';
import { startWaitPings, type WaitPings } from './wait-pings.js';
import { abortOnGone, admitted, failoverOptions } from './request-flow.js';
import { placeSession } from './session-placement.js';
import type { Channel } from '../core/channel.js';
import type { ChatResult, PassThroughResult, Prepared, UpstreamAdapter } from '../upstreams/types.js';
import { WholeBody } from '../upstreams/whole-body.js';
import { nativeAdapter } from '../upstreams/native-adapter.js';
import { deliverPassThrough, deliverTranslated, noText, type Outcome } from './chat-delivery.js';
import type { ChatOutput } from './chat-output.js';
import type { ChatServices } from './chat-services.js';
import type { ChatCall, ChatCodec } from './types.js';
import type { QuotaHold } from '../billing/quota/ledger.js';

type AttemptValue = { kind: 'pass'; result: PassThroughResult } | { kind: 'chat'; result: ChatResult };

export async function serveChat(services: ChatServices, call: ChatCall, codec: ChatCodec, output: ChatOutput): Promise<void> {
  const attempts: Attempt[] = [];
  const abort = abortOnGone(output);
  // Shutdown ends what is still running at the end of its grace period through this signal.
  services.inFlight.begin(abort);
  let core: ChatRequest | undefined;
  const sealer = services.sealer;
  // Reasoning state the gateway sealed on an earlier translated turn is opened once, before any plan.
  // A replayed call whose client dropped its state gets the state remembered for it (core/call-state-memo.ts).
  const memoScope = call.key.record.id;
  const coreRequest = () => (core ??= openRequestState(services.callStates.restore(memoScope, call.toCore()), sealer));
  const writer = output.stream;
  let target: { channel: Channel; upstreamModel: string } | undefined;
  let outcome: Outcome;
  let translation: string | undefined;
  let hold: QuotaHold | undefined;
  let pings: WaitPings | undefined;

  try {
    // Each step is a promise only when it has something to wait for (a limit, a quota).
    const admission = admitted(services, call.key, call.model);
    if (admission) await admission;
    const held = services.holdQuota(call.key, call.model, { inputBytes: call.rawBody.byteLength, body: call.body, impliedOutputTokens: codec.impliedOutputTokens });
    if (held) hold = await held;
    const { candidates, prepared } = servableCandidates(services, call, codec, coreRequest);
    const placing = placeSession(services.affinity, services.health, call, candidates);
    const placed = placing instanceof Promise ? await placing : placing;
    if (call.stream) pings = startWaitPings(writer, codec.keepAliveFrame, codec.streamContentType, services.streamPingMs);
    const attempt = await withFailover(
      placed?.candidates ?? candidates,
      // A placed session's turns keep their channel's key.
      failoverOptions(services, call, attempts, abort.signal, placed?.keyFor),
      async (next): Promise<AttemptValue> => {
        const adapter = services.adapter(next.channel.type);
        const upstreamCall = services.upstreamCall(next, call, abort.signal);
        const native = passingAdapter(adapter, codec, next.channel, call.model);
        if (native) {
          const own = call.passThroughRequest?.(next.channel);
          const request = (own instanceof Promise ? await own : own) ?? {
            rawBody: call.rawBody,
            body: call.body,
            stream: call.stream,
            method: call.passThroughMethod,
          };
          const result = await native.passThrough!(request, upstreamCall);
          const wrapped = call.wrapPassThrough ? call.wrapPassThrough(result, next.channel) : result;
          return { kind: 'pass', result: await withFirstChunk(wrapped instanceof Promise ? await wrapped : wrapped) };
        }
        // Every translated candidate was prepared before routing (servableCandidates); only its sending happens here.
        const ready = prepared.get(next.channel.id)!;
        const result = await adapter.chat(ready, coreRequest(), upstreamCall);
        const callStates = services.callStates;
        const sealed = sealResult(result, sealer, {
          origin: adapter.reasoningOrigin?.(ready) ?? adapter.type,
          carryText: codec.reasoningTextHidden === true,
          onCallState: (callId, token) => callStates.remember(memoScope, callId, token),
        });
        if (!sealed.stream) callStates.rememberAnswer(memoScope, sealed.response.content);
        return { kind: 'chat', result: sealed.stream ? { stream: true, events: await afterFirstPiece(sealed.events) } : sealed };
      },
    );
    pings?.stop();
    target = attempt.target;
    placed?.served(attempt.target);
    translation = noteTranslation(services, call, prepared.get(attempt.target.channel.id)?.decisions, output);
    const delivered = attempt.value.kind === 'pass' ? deliverPassThrough(attempt.value.result, call, codec, output) : deliverTranslated(attempt.value.result, call, codec, output);
    outcome = delivered instanceof Promise ? await delivered : delivered;
  } catch (thrown) {
    pings?.stop();
    const error = toGatewayError(thrown);
    if (error.kind === 'internal') services.logger.error({ err: thrown, requestId: call.requestId }, 'request failed');
    if (writer.hasStarted) {
      await writer.write(codec.createStreamEncoder(call.model).error(error));
      writer.end();
    } else if (!output.gone) {
      output.sendError(codec.renderError(error, call.requestId));
    }
    outcome = { httpStatus: error.status, answered: false, deliveredText: noText, error };
  }

  try {
    services.settle({
      requestId: call.requestId,
      family: codec.family,
      key: call.key,
      model: call.model,
      upstreamModel: target?.upstreamModel,
      channelId: target?.channel.id,
      attempts,
      stream: call.stream,
      httpStatus: outcome.httpStatus,
      error: outcome.error,
      reported: outcome.reported,
      answered: outcome.answered,
      estimateInput: () => estimatePrompt(coreRequest),
      deliveredText: outcome.deliveredText,
      startedAt: call.startedAt,
      firstByteAt: writer.firstByteAt,
      clientIp: call.clientIp,
      translation,
      hold,
    });
  } finally {
    services.inFlight.settled(abort);
  }
}

/** A streamed pass-through body, its first chunk already read (a body read whole has nothing to wait for). */
async function withFirstChunk(result: PassThroughResult): Promise<PassThroughResult> {
  if (result.body instanceof WholeBody) return result;
  return { ...result, body: await afterFirstPiece(result.body) };
}

/** A translated answer's reasoning state leaves sealed, tagged with the upstream type that made it. */
function sealResult(result: ChatResult, sealer: ReasoningSealer, options: SealOptions): ChatResult {
  return result.stream ? { stream: true, events: sealEvents(result.events, sealer, options) } : { stream: false, response: sealResponse(result.response, sealer, options) };
}

/** Names what the serving channel's plan mapped or ignored: a response header, a log line, and the request log (via settle). */
function noteTranslation(services: ChatServices, call: ChatCall, plan: TranslationPlan | undefined, output: ChatOutput): string | undefined {
  const described = plan && describePlan(plan);
  if (described === undefined) return undefined;
  output.header(TRANSLATION_HEADER, described);
  services.logger.info({ requestId: call.requestId, upstream: plan!.upstream, translation: described }, 'translated request');
  return described;
}

export const TRANSLATION_HEADER = 'x-switchyard-translation';

/** Counting must never fail a settle: a request only a native upstream could read (and served) counts as 0. */
function estimatePrompt(coreRequest: () => ChatRequest): number {
  try {
    return countRequestTokens(coreRequest());
  } catch {
    return 0;
  }
}

const NOTHING_PREPARED: ReadonlyMap<string, Prepared<unknown>> = new Map();

/** The adapter that passes this client's bytes through on the channel, if any (a type speaking several dialects answers per model). */
function passingAdapter(adapter: UpstreamAdapter, codec: ChatCodec, channel: Channel, model: string): UpstreamAdapter | undefined {
  const native = nativeAdapter(adapter, codec.dialect, channel, model);
  return native?.passThrough ? native : undefined;
}

/**
 * Candidate channels that can serve the request, each translated one with
 * its upstream request prepared (body and plan), before the first call: a
 * channel whose plan refuses is left out, so the answer never depends on
 * which channel a weighted draw picked, and nothing is refused inside the
 * failover loop. When none can serve, the client gets the first refusal (a
 * 400 naming the field). Native candidates need nothing prepared.
 */
function servableCandidates(services: ChatServices, call: ChatCall, codec: ChatCodec, coreRequest: () => ChatRequest): { candidates: Channel[]; prepared: ReadonlyMap<string, Prepared<unknown>> } {
  const ordered = services.candidates(call.model);
  // The common single native channel takes no filtering and no map.
  if (ordered.every((channel) => passingAdapter(services.adapter(channel.type), codec, channel, call.model))) return { candidates: ordered, prepared: NOTHING_PREPARED };
  const prepared = new Map<string, Prepared<unknown>>();
  let firstRefusal: GatewayError | undefined;
  const candidates = ordered.filter((channel) => {
    const adapter = services.adapter(channel.type);
    if (passingAdapter(adapter, codec, channel, call.model)) return true;
    const strict = call.key.record.strictTranslation === true || channel.settings.strictTranslation === true;
    // The settings as the registry parsed them with the channel type's schema, the type its adapter declares (registry.ts ties the two).
    const built = adapter.prepare(coreRequest(), { strict, settings: channel.settings, upstreamModel: upstreamModelFor(channel, call.model), dialect: codec.dialect });
    prepared.set(channel.id, built);
    firstRefusal ??= built.decisions.refusal;
    return built.decisions.refusal === undefined;
  });
  if (candidates.length === 0 && firstRefusal) throw firstRefusal;
  return { candidates, prepared };
}
