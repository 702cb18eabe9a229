/**
 * The host of batch delegation (src/tasks/batches/delegation/): which lines
 * of a batch go to an upstream's own batch API, where they go, the client of
 * that API on the delegation's channel (openai-batch-client.ts,
 * anthropic-batch-client.ts), and the billing of each line it answered: one
 * request-log row per line at the price's `batchRatio` share, through the
 * settlement every request takes. A line goes where its model would be
 * routed first (the same candidate order an interactive request gets, after
 * the key's model list), and only to a channel whose type serves the
 * batch's endpoint through a batch API it has: openai-chat (chat,
 * embeddings, legacy completions), openai-responses (responses) or
 * anthropic (messages), each with `batchApi`. A key over its quota or a
 * budget delegates nothing: its lines run locally and get the refusal they
 * would get. Rate limits do not apply: an upstream batch does not use
 * interactive capacity.
 */
import type { Channel } from '../core/channel.js';
import { upstreamModelFor } from '../core/channel.js';
import { GatewayError } from '../core/errors.js';
import { usageFromChatCompletion } from '../dialects/chat-completions/usage.js';
import { usageFromMessages } from '../dialects/messages/usage.js';
import { usageFromResponses } from '../dialects/responses/usage.js';
import { budgetSpent } from '../billing/budgets/budget-check.js';
import type { QuotaHold } from '../billing/quota/ledger.js';
import type { ClientKey } from '../http/auth.js';
import type { AppContext } from '../http/context.js';
import { settle } from '../pipeline/settle.js';
import { chatCandidates } from '../pipeline/upstream-call.js';
import type { DelegationHost, UpstreamBatchClient } from '../tasks/batches/delegation/host.js';
import type { Delegation } from '../tasks/batches/delegation/schema.js';
import type { BatchRecord } from '../tasks/batches/schema.js';
import { ownCallHeaders } from '../upstreams/anthropic/endpoint.js';
import { anthropicSettingsOf, offersMessageBatches } from '../upstreams/anthropic/settings.js';
import { batchApiBaseUrl as chatBatchApi } from '../upstreams/openai-chat/endpoint.js';
import { batchApiBaseUrl as responsesBatchApi } from '../upstreams/openai-responses/endpoint.js';
import { anthropicBatchClient } from './anthropic-batch-client.js';
import { openAiBatchClient } from './openai-batch-client.js';
import { newRequestId } from './request-id.js';
import { batchKeyReader } from './batch-keys.js';

/** Each endpoint an upstream batch API serves, the channel type that serves it, and the family its log rows name. */
const DELEGATED: ReadonlyMap<string, { type: string; family: string }> = new Map([
  ['/v1/chat/completions', { type: 'openai-chat', family: 'chat-completions' }],
  ['/v1/embeddings', { type: 'openai-chat', family: 'embeddings' }],
  ['/v1/completions', { type: 'openai-chat', family: 'completions' }],
  ['/v1/responses', { type: 'openai-responses', family: 'responses' }],
  ['/v1/messages', { type: 'anthropic', family: 'messages' }],
]);

/** The channel's batch API address, or undefined when it has none. */
function batchApiOf(channel: Channel): string | undefined {
  if (channel.type === 'openai-chat') return chatBatchApi(channel);
  if (channel.type === 'openai-responses') return responsesBatchApi(channel);
  if (channel.type === 'anthropic') return offersMessageBatches(anthropicSettingsOf(channel), channel.baseUrl) ? channel.baseUrl : undefined;
  return undefined;
}

export function delegationHost(ctx: AppContext): DelegationHost {
  const keyOf = batchKeyReader(ctx);

  const channelOf = (delegation: Delegation): Channel => {
    const channel = ctx.channels.all().find((candidate) => candidate.id === delegation.channelId);
    // Refused (4xx): the delegation hands its lines back to the local runner.
    if (!channel) throw new GatewayError('not_found', 'the channel of this upstream batch no longer exists');
    return channel;
  };
  // One upstream batch keeps to one credential: its files and batch belong to that key's project (workspace).
  const connectionOf = (delegation: Delegation) => {
    const channel = channelOf(delegation);
    const apiKey = channel.apiKeys[0] ?? '';
    return { channel, baseUrl: batchApiOf(channel) ?? channel.baseUrl, apiKey, timeoutMs: ctx.settings.upstreamTimeoutMs };
  };
  const openAi = openAiBatchClient(connectionOf);
  const anthropic = anthropicBatchClient((delegation) => {
    const connection = connectionOf(delegation);
    return { ...connection, headers: ownCallHeaders(connection.channel, connection.apiKey) };
  });
  const typeOf = (delegation: Delegation): string | undefined => ctx.channels.all().find((candidate) => candidate.id === delegation.channelId)?.type;

  return {
    // A channel gone since is met by the OpenAI client's first call, which refuses: the lines go back to the local runner.
    client: (delegation): UpstreamBatchClient => (typeOf(delegation) === 'anthropic' ? anthropic : openAi),
    delegates: (endpoint) => DELEGATED.has(endpoint),
    async routeOf(batch: BatchRecord) {
      const served = DELEGATED.get(batch.endpoint);
      const key = await keyOf(batch.keyId);
      if (!served || !key || !usable(ctx, key)) return undefined;
      return (model) => {
        try {
          // The key's model list and quota, as an interactive request meets them first.
          ctx.auth.authorize(key, model);
        } catch {
          return undefined;
        }
        const first = chatCandidates(ctx, model)[0];
        if (!first || first.type !== served.type || batchApiOf(first) === undefined) return undefined;
        return { channelId: first.id, upstreamModel: upstreamModelFor(first, model) };
      };
    },
    async bill(batch, delegation, line, answer, requestId) {
      const key = await keyOf(batch.keyId);
      const answered = answer.statusCode >= 200 && answer.statusCode < 300;
      const usage = (answer.body as { usage?: Record<string, unknown> } | null)?.usage;
      const now = Date.now();
      settle(ctx, {
        requestId,
        family: DELEGATED.get(batch.endpoint)?.family ?? 'batch',
        key: key ?? null,
        model: typeof line.body.model === 'string' ? line.body.model : delegation.upstreamModel,
        upstreamModel: delegation.upstreamModel,
        channelId: delegation.channelId,
        attempts: [],
        stream: false,
        httpStatus: answer.statusCode,
        error: answered ? undefined : new GatewayError('upstream_error', `the upstream batch answered the line with status ${answer.statusCode}`, { status: answer.statusCode }),
        reported: answered && usage ? reportedUsage(batch.endpoint, usage) : undefined,
        answered,
        estimateInput: () => 0,
        deliveredText: () => '',
        startedAt: now,
        clientIp: '',
        batchPrice: true,
        hold: key && chargeAfter(ctx, key),
      });
    },
    newRequestId,
  };
}

/** The usage of an answer, read in its endpoint's dialect. */
function reportedUsage(endpoint: string, usage: Record<string, unknown>) {
  if (endpoint === '/v1/messages') return usageFromMessages(usage as never);
  return 'input_tokens' in usage ? usageFromResponses(usage as never) : usageFromChatCompletion(usage as never);
}

/**
 * The charge of a line the upstream already served, as the settlement takes
 * it: nothing was held before (the key's limits were checked when the lines
 * were handed over), the cost goes to the key's and its budgets' running
 * totals after, in this period, as a task's charge does.
 */
function chargeAfter(ctx: AppContext, key: ClientKey): QuotaHold | undefined {
  const budgets = ctx.budgets.applicable(key.record);
  if (key.record.quota === null && budgets === undefined) return undefined;
  const now = ctx.budgets.now();
  const periodStarts = budgets?.map((limit) => limit.window(now).start);
  return {
    recordsSpend: false,
    budgets,
    periodStarts,
    async release(cost, tokens = 0) {
      await ctx.quota.adjust(key.record.id, cost);
      if (budgets && periodStarts) await ctx.quota.adjustBudgets(budgets.map((limit, index) => ({ limit, periodStart: periodStarts[index]!, usd: cost, tokens })));
    },
  };
}

/** Whether the key may spend now: active, unexpired, within its quota (checked per model by `authorize`) and every budget. */
function usable(ctx: AppContext, key: ClientKey): boolean {
  const { record } = key;
  if (record.status !== 'active' || record.ownerDisabled || (record.expiresAt !== null && record.expiresAt <= Date.now())) return false;
  const now = ctx.budgets.now();
  for (const limit of ctx.budgets.applicable(record) ?? []) {
    const start = limit.window(now).start;
    if (budgetSpent(limit.record, limit.settledUsdIn(start), limit.settledTokensIn(start))) return false;
  }
  return true;
}
