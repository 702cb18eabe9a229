/**
 * "Test this channel": one small chat request sent to one channel only,
 * enabled or not, outside routing, failover and the breakers, and answered
 * with how it went. Not client traffic: nothing is logged, charged or counted.
 */
import { upstreamModelFor } from '../core/channel.js';
import type { ChatRequest, ChatResponse } from '../core/chat.js';
import { GatewayError, toGatewayError } from '../core/errors.js';
import { foldStream } from '../core/stream-fold.js';
import type { AppContext } from '../http/context.js';
import { upstreamCallFor } from '../pipeline/upstream-call.js';
import { parsedChannelSettings } from '../config/entity-rules.js';
import { channelFromRecord } from '../routing/channel-registry.js';
import type { ChannelRecord } from '../storage/types.js';
import { newId } from '../storage/ids.js';

export interface ChannelTestResult {
  ok: boolean;
  /** 200, or the upstream's (or the gateway's) error status. */
  status: number;
  latencyMs: number;
  model: string;
  upstreamModel: string;
  error: { type: string; message: string } | null;
  /** The start of the answer's text. */
  sample: string | null;
}

const PROMPT = 'Reply with the single word: ok';

function openChannel(ctx: AppContext, record: ChannelRecord) {
  try {
    const channel = channelFromRecord(record, ctx.secrets);
    // Settings parsed as the registry parses them, so the test call is built as a served one would be.
    return { ...channel, settings: parsedChannelSettings(channel) };
  } catch (error) {
    throw new GatewayError('invalid_request', `this channel cannot be tested: apiKey: ${(error as Error).message}`, { status: 409, param: 'apiKey' });
  }
}

export async function testChannel(ctx: AppContext, record: ChannelRecord, model?: string): Promise<ChannelTestResult> {
  if (!ctx.adapters.has(record.type)) {
    throw new GatewayError('invalid_request', `a ${record.type} channel serves tasks, not chat; the test sends a chat request, so test it by submitting a task`);
  }
  const channel = openChannel(ctx, record);
  const name = model ?? channel.models.find((entry) => !entry.includes('*')) ?? Object.keys(channel.modelMapping)[0];
  if (!name) throw new GatewayError('invalid_request', 'this channel lists no exact model name: give one in `model`', { param: 'model' });
  const upstreamModel = upstreamModelFor(channel, name);
  const target = { channel, upstreamModel, apiKey: channel.apiKeys[0] ?? '' };
  const signal = AbortSignal.timeout(ctx.settings.upstreamTimeoutMs);
  const call = upstreamCallFor(ctx, target, { requestId: newId('test'), headers: {} }, signal);
  const startedAt = Date.now();
  try {
    const adapter = ctx.adapters.get(channel.type);
    const request: ChatRequest = { model: name, messages: [{ role: 'user', content: [{ type: 'text', text: PROMPT }] }], maxTokens: 16, stream: false };
    const prepared = adapter.prepare(request, { strict: false, settings: channel.settings, upstreamModel });
    if (prepared.decisions.refusal) throw prepared.decisions.refusal;
    const result = await adapter.chat(prepared, request, call);
    const response: ChatResponse = result.stream ? await foldStream(result.events) : result.response;
    const text = response.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
    return { ok: true, status: 200, latencyMs: Date.now() - startedAt, model: name, upstreamModel, error: null, sample: text.slice(0, 200) };
  } catch (thrown) {
    const error = toGatewayError(thrown);
    // An unexpected error's own text may carry runtime detail: only gateway errors say why.
    const message = error.kind === 'internal' ? 'the gateway failed to call this channel' : error.message;
    return { ok: false, status: error.upstreamStatus ?? error.status, latencyMs: Date.now() - startedAt, model: name, upstreamModel, error: { type: error.kind, message }, sample: null };
  }
}
