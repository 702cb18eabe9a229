/**
 * The path of OpenAI's audio operations (`/v1/audio/speech`,
 * `/v1/audio/transcriptions`, `/v1/audio/translations`) once the family read
 * the request, as images take theirs (image-operation.ts): key, model
 * allow-list, rate limits, a quota hold (speech's input and its likely
 * seconds, a WAV upload's seconds, at the model's `perSecond`), the channels whose adapter serves the
 * operation, failover before any byte is sent, the answer, the settlement. A
 * channel that cannot make what was asked (a format, a field it would drop)
 * is skipped, and when every one refuses, the first refusal is the client's
 * 400 before any call. A channel whose server has OpenAI's audio endpoints gets the client's body
 * as it is and its answer's bytes go back as they come; a computing upstream
 * (the simulator) gets the internal request and the family renders its
 * answer, or, for speech asked as `stream_format: sse` where the upstream
 * streams it (`serveStream`), writes OpenAI's events as the audio comes. Billed per second of audio (`perSecond`) and per token where the
 * upstream reports tokens, else speech's input tokens counted by the gateway.
 */
import type { Attempt } from '../core/attempt.js';
import { GatewayError } from '../core/errors.js';
import { countTokens } from '../core/tokens.js';
import { withFailover } from '../routing/failover.js';
import type { ClientKey } from '../http/auth.js';
import type { AudioBody, AudioPassThroughResult, AudioRequest, AudioResponse, AudioUsage } from '../dialects/openai-audio/wire.js';
import type { QuotaHold } from '../billing/quota/ledger.js';
import type { ChatOutput } from './chat-output.js';
import { abortOnGone, admitted, failPlain, failoverOptions, routedFields } from './request-flow.js';
import type { RequestServices } from './services.js';
import type { RenderedError } from './types.js';

export interface AudioCodec {
  /** The family name written to request logs (one per operation). */
  readonly family: string;
  /** The model's price per second of audio, for the quota hold (0 when it has none). */
  perSecondUsd(model: string): number;
  /** The answer a computing upstream's response makes for the client. */
  render(response: AudioResponse, request: AudioRequest): { contentType: string; body: string | Buffer };
  renderError(error: GatewayError, requestId: string): RenderedError;
}

export interface AudioCall {
  requestId: string;
  key: ClientKey;
  clientIp: string;
  headers: Record<string, string | string[] | undefined>;
  startedAt: number;
  request: AudioRequest;
  /** The client's body, for servers that take it as it is. */
  body: AudioBody;
  /** Seconds of the uploaded audio when the gateway can read them (a WAV), for the hold and the bill. */
  uploadSeconds?: number;
}

type Answer = { kind: 'pass'; result: AudioPassThroughResult } | { kind: 'served'; response: AudioResponse };

export async function serveAudioOperation(services: RequestServices, call: AudioCall, codec: AudioCodec, output: ChatOutput): Promise<void> {
  const request = call.request;
  const routed = { ...call, model: request.model };
  const attempts: Attempt[] = [];
  const abort = abortOnGone(output);
  let target: { channel: { id: string }; upstreamModel: string } | undefined;
  let usage: AudioUsage = {};
  let httpStatus: number;
  let error: GatewayError | undefined;
  let hold: QuotaHold | undefined;
  let streamed = false;
  try {
    const admission = admitted(services, call.key, request.model);
    if (admission) await admission;
    // Speech is held at about 15 characters a second of audio (as long as the input takes to read).
    const heldSeconds = request.operation === 'speech' ? request.input.length / 15 / request.speed : (call.uploadSeconds ?? 0);
    const perUnitUsd = heldSeconds * codec.perSecondUsd(request.model);
    const inputBytes = request.operation === 'speech' ? Buffer.byteLength(request.input) : 0;
    const held = services.holdQuota(call.key, request.model, { inputBytes, outputTokens: 0, perUnitUsd });
    if (held) hold = await held;
    const candidates = audioCandidates(services, request);
    const attempt = await withFailover(candidates, failoverOptions(services, routed, attempts, abort.signal), async (next): Promise<Answer> => {
      const operation = services.adapter(next.channel.type).audio!;
      const upstreamCall = services.upstreamCall(next, call, abort.signal);
      if (operation.passThrough) return { kind: 'pass', result: await operation.passThrough(request.operation, call.body, upstreamCall) };
      if (request.operation === 'speech' && request.streamFormat === 'sse' && operation.serveStream) return { kind: 'pass', result: await operation.serveStream(request, upstreamCall) };
      return { kind: 'served', response: await operation.serve!(request, upstreamCall) };
    });
    target = attempt.target;
    const answer = attempt.value;
    if (answer.kind === 'pass') {
      streamed = true;
      const out = await streamOut(answer.result, output);
      usage = out.usage;
      error = out.error;
      httpStatus = answer.result.status;
    } else {
      usage = answer.response;
      const rendered = codec.render(answer.response, request);
      output.send(200, rendered.contentType, rendered.body);
      httpStatus = 200;
    }
  } catch (thrown) {
    error = failPlain(services, output, thrown, call, codec, codec.family);
    httpStatus = error.status;
  }
  // The upload's own length is what it is billed by where the gateway can read it; else the upstream's report.
  const seconds = call.uploadSeconds ?? usage.seconds;
  services.settle({
    ...routedFields(routed, codec.family, target, attempts),
    stream: streamed || (request.operation !== 'speech' && request.stream),
    httpStatus,
    error,
    reported: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens ?? 0 },
    answered: error === undefined || streamed,
    firstByteAt: streamed ? output.stream.firstByteAt : undefined,
    // Speech's input is text the gateway counts; a transcription's input is audio, billed by its seconds or the upstream's tokens.
    estimateInput: () => (request.operation === 'speech' ? countTokens(request.input) : 0),
    deliveredText: () => '',
    hold,
    audioSeconds: seconds,
  });
}

/** The channels that serve the operation and can make what was asked; when all of them refuse it, the first refusal is the client's 400. */
function audioCandidates(services: RequestServices, request: AudioRequest) {
  let refused: GatewayError | undefined;
  const offered = services.candidates(request.model, (adapter, channel) => {
    const operation = adapter.audio;
    if (operation?.offered(channel, request.operation) !== true) return false;
    const refusal = operation.refusal?.(request, channel);
    refused ??= refusal;
    return refusal === undefined;
  });
  if (offered.length === 0 && refused) throw refused;
  return offered;
}

/** Writes a server's answer as its bytes come; a stream that breaks after its start is cut (its bytes cannot carry an error). */
async function streamOut(result: AudioPassThroughResult, output: ChatOutput): Promise<{ usage: AudioUsage; error?: GatewayError }> {
  output.stream.start(result.status, result.contentType);
  let error: GatewayError | undefined;
  try {
    for await (const chunk of result.chunks) if (!(await output.stream.write(chunk))) break;
  } catch (thrown) {
    error = thrown instanceof GatewayError ? thrown : new GatewayError('upstream_error', 'the upstream answer broke off', { retryable: true });
  }
  output.stream.end();
  return { usage: result.read(), error };
}
