/**
 * Fakes for driving the request paths without a server: services whose
 * adapters are scripted, an output that records what the client received,
 * and a codec writing one line per event.
 */
import { pino } from 'pino';
import type { ChatEvent, ChatRequest } from '../../src/core/chat.js';
import type { Channel } from '../../src/core/channel.js';
import type { GatewayError } from '../../src/core/errors.js';
import { ReasoningSealer } from '../../src/core/reasoning-state.js';
import { CallStateMemo } from '../../src/core/call-state-memo.js';
import { nativePlan, type TranslationPlan } from '../../src/core/translation-plan.js';
import type { ClientKey } from '../../src/http/auth.js';
import { ChannelHealth } from '../../src/routing/health.js';
import type { ChatOutput } from '../../src/pipeline/chat-output.js';
import type { ChatServices } from '../../src/pipeline/chat-services.js';
import { InFlightCalls } from '../../src/core/in-flight.js';
import { completeUsage, type CountSettlement, type SettleInput } from '../../src/pipeline/settle.js';
import type { ChatCall, ChatCodec, RenderedError } from '../../src/pipeline/types.js';
import type { ChatResult, PassThroughResult, UpstreamAdapter } from '../../src/upstreams/types.js';

export const channel = (name: string, type = name): Channel =>
  ({ id: `ch_${name}`, name, type, baseUrl: '', apiKeys: [], models: ['*'], modelMapping: {}, priority: 0, weight: 1, enabled: true, settings: {} }) as unknown as Channel;

export interface ScriptedAdapter {
  type: string;
  calls: number;
  chat?: (request: ChatRequest) => Promise<ChatResult>;
  passThrough?: () => Promise<PassThroughResult>;
  refusal?: GatewayError;
  /** How many times the pipeline prepared a request for it (once per request it was a translated candidate of). */
  prepared?: number;
}

export function adapter(script: ScriptedAdapter): UpstreamAdapter {
  return {
    type: script.type,
    nativeDialect: script.passThrough ? 'messages' : undefined,
    prepare: (request: ChatRequest) => {
      script.prepared = (script.prepared ?? 0) + 1;
      const decisions: TranslationPlan = { ...nativePlan(script.type), refusal: script.refusal };
      return { body: request, decisions };
    },
    chat: (_prepared: unknown, request: ChatRequest) => {
      script.calls++;
      return script.chat!(request);
    },
    passThrough: script.passThrough
      ? () => {
          script.calls++;
          return script.passThrough!();
        }
      : undefined,
  } as UpstreamAdapter;
}

export interface Recorded {
  services: ChatServices;
  settled: SettleInput[];
  counted: CountSettlement[];
  released: number[];
}

export function services(channels: Channel[], adapters: UpstreamAdapter[], options: { authorize?: () => void; admit?: () => Promise<void> | undefined; quota?: boolean } = {}): Recorded {
  const settled: SettleInput[] = [];
  const counted: CountSettlement[] = [];
  const released: number[] = [];
  const byType = new Map(adapters.map((a) => [a.type, a]));
  const recorded: Recorded = {
    settled,
    counted,
    released,
    services: {
      authorize: options.authorize ?? (() => {}),
      admit: options.admit ?? (async () => {}),
      holdQuota: async () => (options.quota ? { recordsSpend: false, release: async (cost: number) => void released.push(cost) } : undefined),
      candidates: (_model, accepts) => (accepts ? channels.filter((channel) => accepts(byType.get(channel.type)!, channel)) : channels),
      adapter: (type) => byType.get(type)!,
      imageCandidates: (_model, accepts) => channels.filter((channel) => byType.get(channel.type)?.images !== undefined && accepts(byType.get(channel.type)!.images!, channel)),
      imageOperation: (type) => byType.get(type)?.images,
      maxAttempts: 3,
      streamPingMs: 0,
      health: new ChannelHealth(60_000),
      upstreamCall: (target, request, signal) => ({
        channel: target.channel,
        upstreamModel: target.upstreamModel,
        apiKey: target.apiKey,
        signal,
        requestId: request.requestId,
        clientHeaders: request.headers,
        timeoutMs: 1000,
        limits: { maxBodyBytes: 1 << 20, maxStreamBytes: 1 << 22, maxEventBytes: 1 << 20 },
      }),
      sealer: new ReasoningSealer(Buffer.alloc(32, 7)),
      callStates: new CallStateMemo({ maxEntries: 100, maxChars: 1_000_000, ttlMs: 60_000 }),
      logger: pino({ level: 'silent' }),
      inFlight: new InFlightCalls(),
      settle: (input) => {
        settled.push(input);
        // As the real settlement does, the hold is released; the charged output tokens stand in for the cost.
        void input.hold?.release(completeUsage(input).outputTokens);
      },
      settleCount: (input) => void counted.push(input),
    },
  };
  return recorded;
}

export interface RecordingOutput extends ChatOutput {
  status?: number;
  /** The content type of a plain answer. */
  type?: string;
  body?: string;
  headers: Record<string, string>;
  chunks: string[];
  ended: boolean;
  /** Simulates the client going away. */
  disconnect(): void;
}

export function recordingOutput(): RecordingOutput {
  let onGone: (() => void) | undefined;
  let started = false;
  let gone = false;
  const out: RecordingOutput = {
    chunks: [],
    headers: {},
    ended: false,
    watchClient: (callback) => void (onGone = callback),
    get gone() {
      return gone;
    },
    header: (name, value) => void (out.headers[name] = value),
    send(status, type, body) {
      out.status = status;
      out.type = type;
      out.body = body.toString();
    },
    sendError(rendered: RenderedError) {
      out.status = rendered.status;
      out.body = JSON.stringify(rendered.body);
    },
    stream: {
      get hasStarted() {
        return started;
      },
      firstByteAt: undefined,
      start(status) {
        started = true;
        out.status = status;
      },
      async write(chunk) {
        if (gone) return false;
        out.chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
        return true;
      },
      end() {
        out.ended = true;
      },
    },
    disconnect() {
      gone = true;
      onGone?.();
    },
  };
  return out;
}

export const codec: ChatCodec = {
  family: 'test',
  dialect: 'messages',
  streamContentType: 'text/event-stream',
  renderResponse: (response) => ({ text: response.content.map((part) => (part.type === 'text' ? part.text : '')).join('') }),
  createStreamEncoder: () => ({
    encode: (event: ChatEvent) => `${JSON.stringify(event)}\n`,
    error: (error: GatewayError) => `error ${error.kind}\n`,
  }),
  renderError: (error: GatewayError) => ({ status: error.status, body: { error: error.message } }),
};

export function chatCall(stream: boolean): ChatCall {
  const body = { model: 'm', stream, max_tokens: 50 };
  return {
    requestId: 'req_1',
    key: { record: { id: 'key_1', quota: 10 } } as unknown as ClientKey,
    clientIp: '127.0.0.1',
    headers: {},
    model: 'm',
    stream,
    rawBody: Buffer.from(JSON.stringify(body)),
    body,
    toCore: () => ({ model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }], stream }),
    startedAt: Date.now(),
  };
}

export const usage = { inputTokens: 7, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** A translated stream that says `text` in pieces, then fails or finishes. */
export async function* events(texts: string[], fail?: GatewayError): AsyncIterable<ChatEvent> {
  yield { type: 'message_start', id: 'msg_1', model: 'm' };
  yield { type: 'block_start', index: 0, block: { type: 'text' } };
  for (const text of texts) yield { type: 'text_delta', index: 0, text };
  if (fail) throw fail;
  yield { type: 'block_stop', index: 0 };
  yield { type: 'finish', reason: 'stop', usage };
}
