/**
 * The host of batch delegation (src/tasks/batches/delegation/): which lines
 * of an OpenAI batch go to an upstream's own Batch API, where they go, the
 * HTTP calls to it (src/upstreams/openai-batch-api.ts) on the delegation's
 * channel, and the billing of each line it answered: one request-log row per
 * line at the price's `batchRatio` share, through the settlement every
 * request takes. A line goes where its model would be routed first (the
 * same candidate order an interactive request gets, after the key's model
 * list), and only to an openai-chat channel (chat, embeddings, legacy
 * completions) or an openai-responses channel (responses) with `batchApi`.
 * A key over its quota or a budget delegates nothing: its lines run
 * locally and get the refusal they would get. Rate limits do not apply: an
 * upstream batch does not use interactive capacity.
 */
import type { Channel } from '../core/channel.js';
import { upstreamModelFor } from '../core/channel.js';
import { GatewayError } from '../core/errors.js';
import { usageFromChatCompletion } from '../dialects/chat-completions/usage.js';
import { usageFromResponses } from '../dialects/responses/usage.js';
import { budgetSpent } from '../billing/budgets/budget-check.js';
import type { QuotaHold } from '../billing/quota/ledger.js';
import type { ClientKey } from '../http/auth.js';
import type { AppContext } from '../http/context.js';
import { settle } from '../pipeline/settle.js';
import { chatCandidates } from '../pipeline/upstream-call.js';
import type { DelegationHost, UpstreamBatch, UpstreamBatchClient } from '../tasks/batches/delegation/host.js';
import type { Delegation } from '../tasks/batches/delegation/schema.js';
import type { BatchRecord } from '../tasks/batches/schema.js';
import { batchApiBaseUrl as chatBatchApi } from '../upstreams/openai-chat/endpoint.js';
import { batchApiBaseUrl as responsesBatchApi } from '../upstreams/openai-responses/endpoint.js';
import { type BatchApiConnection, cancelBatch, createBatch, deleteFile, fileLines, findBatch, getBatch, type OpenAIBatchObject, uploadBatchFile } from '../upstreams/openai-batch-api.js';
import { newRequestId } from './request-id.js';
import { batchKeyReader } from './batch-keys.js';

/** Each endpoint an upstream batch API serves, the channel type that serves it, and the family its log rows name. */
const DELEGATED: ReadonlyMap<string, { type: string; family: string }> = new Map([
  ['/v1/chat/completions', { type: 'openai-chat', family: 'chat-completions' }],
  ['/v1/embeddings', { type: 'openai-chat', family: 'embeddings' }],
  ['/v1/completions', { type: 'openai-chat', family: 'completions' }],
  ['/v1/responses', { type: 'openai-responses', family: 'responses' }],
]);

/** The channel's batch API address, or undefined when it has none. */
function batchApiOf(channel: Channel): string | undefined {
  if (channel.type === 'openai-chat') return chatBatchApi(channel);
  if (channel.type === 'openai-responses') return responsesBatchApi(channel);
  return undefined;
}

export function delegationHost(ctx: AppContext): DelegationHost {
  const keyOf = batchKeyReader(ctx);

  const connectionOf = (delegation: Delegation): BatchApiConnection => {
    const channel = ctx.channels.all().find((candidate) => candidate.id === delegation.channelId);
    // Refused (4xx): the delegation hands its lines back to the local runner.
    if (!channel) throw new GatewayError('not_found', 'the channel of this upstream batch no longer exists');
    // One upstream batch keeps to one credential: its files and batch belong to that key's project.
    return { baseUrl: batchApiOf(channel) ?? channel.baseUrl, apiKey: channel.apiKeys[0] ?? '', timeoutMs: ctx.settings.upstreamTimeoutMs };
  };

  const client = upstreamBatchClient(connectionOf);

  return {
    client,
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
      const reported = !answered || !usage ? undefined : 'input_tokens' in usage ? usageFromResponses(usage as never) : usageFromChatCompletion(usage as never);
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
        reported,
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

/** The upstream Batch API calls of a delegation, on the connection its channel gives. */
export function upstreamBatchClient(connectionOf: (delegation: Delegation) => BatchApiConnection): UpstreamBatchClient {
  return {
    upload: (delegation, jsonl) => uploadBatchFile(connectionOf(delegation), jsonl, `${delegation.id}.jsonl`),
    find: async (delegation) => {
      const found = await findBatch(connectionOf(delegation), delegation.id);
      return found && upstreamBatch(found);
    },
    create: async (delegation, fileId, endpoint) => upstreamBatch(await createBatch(connectionOf(delegation), fileId, endpoint, delegation.id)),
    get: async (delegation) => upstreamBatch(await getBatch(connectionOf(delegation), delegation.upstreamBatchId!)),
    cancel: async (delegation) => upstreamBatch(await cancelBatch(connectionOf(delegation), delegation.upstreamBatchId!)),
    results: async function* (delegation, fileId) {
      for await (const line of fileLines(connectionOf(delegation), fileId)) {
        const response = line.response as { status_code?: unknown; body?: unknown } | null | undefined;
        const statusCode = typeof response?.status_code === 'number' ? response.status_code : undefined;
        yield { customId: String(line.custom_id), response: statusCode === undefined ? null : { statusCode, body: response?.body ?? null } };
      }
    },
    remove: (delegation, fileId) => deleteFile(connectionOf(delegation), fileId),
  };
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

function upstreamBatch(batch: OpenAIBatchObject): UpstreamBatch {
  if (typeof batch?.id !== 'string' || typeof batch.status !== 'string') throw new GatewayError('upstream_error', 'the upstream answered with no batch object', { retryable: true });
  return { id: batch.id, status: batch.status, outputFileId: batch.output_file_id ?? null, errorFileId: batch.error_file_id ?? null };
}
