/**
 * Prometheus metrics of one gateway instance, named after the OpenTelemetry
 * GenAI semantic conventions where one applies (`gen_ai_client_operation_
 * duration_seconds`, `gen_ai_client_token_usage`, `gen_ai_server_time_to_
 * first_token_seconds`, with `gen_ai_operation_name` and
 * `gen_ai_request_model` labels) and `switchyard_*` for the rest. A request
 * is observed once, when it settles; state (breakers, task queues,
 * callback deliveries) is read when the metrics are scraped. prom-client,
 * which renders them, is loaded at the first scrape: evaluating it was part
 * of every start, though requests are observed without it.
 */
import type { Registry } from 'prom-client';
import { CellCounter, CellHistogram } from './metric-cells.js';

export interface RequestObservation {
  family: string;
  operation: 'chat' | 'text_completion' | 'embeddings' | 'rerank' | 'moderations' | 'image_generation' | 'speech' | 'transcription' | 'task';
  model: string;
  channel: string;
  status: number;
  durationMs: number;
  firstByteMs?: number;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  keyName: string;
  /** The key's team (its id), for the spend per team; null or absent: none. */
  teamId?: string | null;
  /** Channels tried after the first (failovers). */
  failovers: number;
  /** `rate_limited` or `quota_exhausted` when the request was refused for a limit. */
  limitKind?: string;
}

/** Read at scrape time. */
export interface MetricsSources {
  breakers(): Array<{ channel: string; state: string }>;
  tasks(): Promise<Array<{ family: string; status: string; count: number }>>;
  deliveries(): Promise<Array<{ status: string; count: number }>>;
}

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576];

export class GatewayMetrics {
  private registry?: Promise<Registry>;
  private readonly requests: CellCounter;
  private readonly duration: CellHistogram;
  private readonly firstToken: CellHistogram;
  private readonly tokens: CellHistogram;
  private readonly spend: CellCounter;
  private readonly teamSpend: CellCounter;
  private readonly failovers: CellCounter;
  private readonly limited: CellCounter;

  /** Off (SWITCHYARD_METRICS=off): nothing is recorded and /metrics is not served. */
  readonly enabled: boolean;

  constructor(
    private readonly sources: MetricsSources,
    options: { enabled?: boolean } = {},
  ) {
    this.enabled = options.enabled ?? true;
    this.requests = new CellCounter('switchyard_requests_total', 'Requests served, by family, model, channel and HTTP status.', ['family', 'gen_ai_request_model', 'channel', 'status']);
    this.duration = new CellHistogram(
      'gen_ai_client_operation_duration_seconds',
      'Duration of a request from its arrival to its settlement.',
      ['gen_ai_operation_name', 'family', 'gen_ai_request_model', 'channel', 'status'],
      DURATION_BUCKETS,
    );
    this.firstToken = new CellHistogram(
      'gen_ai_server_time_to_first_token_seconds',
      'Time from a streamed request’s arrival to its first byte sent to the client.',
      ['family', 'gen_ai_request_model', 'channel'],
      DURATION_BUCKETS,
    );
    this.tokens = new CellHistogram('gen_ai_client_token_usage', 'Tokens per request, by type (input, output).', ['gen_ai_token_type', 'family', 'gen_ai_request_model'], TOKEN_BUCKETS);
    this.spend = new CellCounter('switchyard_spend_usd_total', 'Spend charged to keys, in USD.', ['family', 'gen_ai_request_model', 'key']);
    // Teams are fewer than the keys they hold: a label as bounded as the key one. Users are not (one per person).
    this.teamSpend = new CellCounter('switchyard_team_spend_usd_total', 'Spend charged to the keys of a team (by team id), in USD.', ['family', 'gen_ai_request_model', 'team']);
    this.failovers = new CellCounter('switchyard_failovers_total', 'Channels tried after the first one.', ['family', 'gen_ai_request_model']);
    this.limited = new CellCounter('switchyard_limit_rejections_total', 'Requests refused for a rate limit or an exhausted quota.', ['family', 'reason']);
  }

  /** The registry, made at the first scrape: the cells in the order above, then the gauges read at each scrape. */
  private async createRegistry(): Promise<Registry> {
    const { Gauge, Registry } = await import('prom-client');
    const registry = new Registry();
    for (const cell of [this.requests, this.duration, this.firstToken, this.tokens, this.spend, this.teamSpend, this.failovers, this.limited]) registry.registerMetric(cell as never);
    const registers = [registry];
    const sources = this.sources;
    new Gauge({
      name: 'switchyard_channel_breaker_state',
      help: 'Circuit breaker per channel: 1 for its current state (closed, open, half_open).',
      labelNames: ['channel', 'state'],
      registers,
      collect() {
        this.reset();
        for (const { channel, state } of sources.breakers()) this.set({ channel, state }, 1);
      },
    });
    new Gauge({
      name: 'switchyard_tasks',
      help: 'Image and video tasks by family and status (queued ones are the queue depth; finished ones the outcomes).',
      labelNames: ['family', 'status'],
      registers,
      async collect() {
        this.reset();
        for (const row of await sources.tasks()) this.set({ family: row.family, status: row.status }, row.count);
      },
    });
    new Gauge({
      name: 'switchyard_callback_deliveries',
      help: 'Task callback deliveries by status.',
      labelNames: ['status'],
      registers,
      async collect() {
        this.reset();
        for (const row of await sources.deliveries()) this.set({ status: row.status }, row.count);
      },
    });
    return registry;
  }

  observe(o: RequestObservation): void {
    if (!this.enabled) return;
    const status = String(o.status);
    this.requests.inc([o.family, o.model, o.channel, status]);
    this.duration.observe([o.operation, o.family, o.model, o.channel, status], o.durationMs / 1000);
    if (o.firstByteMs !== undefined) this.firstToken.observe([o.family, o.model, o.channel], o.firstByteMs / 1000);
    if (o.inputTokens > 0) this.tokens.observe(['input', o.family, o.model], o.inputTokens);
    if (o.outputTokens > 0) this.tokens.observe(['output', o.family, o.model], o.outputTokens);
    if (o.cost !== 0) this.spend.inc([o.family, o.model, o.keyName], o.cost);
    if (o.cost !== 0 && o.teamId) this.teamSpend.inc([o.family, o.model, o.teamId], o.cost);
    if (o.failovers > 0) this.failovers.inc([o.family, o.model], o.failovers);
    if (o.limitKind) this.limited.inc([o.family, o.limitKind]);
  }

  async text(): Promise<string> {
    return (await (this.registry ??= this.createRegistry())).metrics();
  }

  async contentType(): Promise<string> {
    return (await (this.registry ??= this.createRegistry())).contentType;
  }
}
