/**
 * The durable task engine's contracts: what a task is, what an upstream that
 * runs tasks must provide, and what a family plugs in. Each kind's shapes
 * (an image task's request and result) live in its contract
 * (`image-contract.ts`, `video-contract.ts`); to the engine they are opaque
 * JSON.
 */
import type { UpstreamLimits } from '../core/upstream-limits.js';
import type { Channel } from '../core/channel.js';
import type { OutboundGuard } from './outbound-guard.js';

/** One vocabulary for every family; a family renders it in its own words. */
export type TaskStatus = 'NOT_START' | 'SUBMITTED' | 'MODAL' | 'IN_PROGRESS' | 'SUCCESS' | 'FAILURE' | 'CANCEL';

export const FINAL_STATUSES: ReadonlySet<TaskStatus> = new Set<TaskStatus>(['SUCCESS', 'FAILURE', 'CANCEL']);

export const isFinal = (status: TaskStatus): boolean => FINAL_STATUSES.has(status);

/**
 * Where the money of a task stands: charged when accepted, then settled once
 * on success or refunded once on failure or timeout.
 */
export type BillingState = 'none' | 'charged' | 'settled' | 'refunded';

export type JsonObject = Record<string, unknown>;

export interface TaskRecord {
  /** Numeric string, unique across instances. */
  id: string;
  family: string;
  /** Family vocabulary, e.g. IMAGINE, UPSCALE. */
  action: string;
  /** The owning client key. */
  keyId: string;
  /** The key's team and user when the task was submitted (null: none; absent in records built by hand). */
  teamId?: string | null;
  userId?: string | null;
  channelId: string;
  /** The upstream account chosen for the task, if the channel has accounts. */
  accountId: string | null;
  /** That account's details (family-specific JSON). */
  account: JsonObject | null;
  /** The upstream's own id; never shown to clients. */
  upstreamId: string | null;
  /** Upstream-private bookkeeping (e.g. the simulator's schedule). */
  upstreamData: JsonObject | null;
  parentId: string | null;
  status: TaskStatus;
  /** 0-100. */
  progress: number;
  request: JsonObject;
  result: JsonObject | null;
  failReason: string | null;
  notifyHook: string | null;
  /** Quota units (USD) charged when the task was accepted. */
  cost: number;
  billing: BillingState;
  /** Bumped by every state change; transitions compare and set it. */
  version: number;
  leaseOwner: string | null;
  leaseUntil: number | null;
  /** When the poller next looks at the task; null once final. */
  nextPollAt: number | null;
  pollCount: number;
  submitTime: number;
  startTime: number | null;
  finishTime: number | null;
  /** Past this time an unfinished task fails (and is refunded). */
  timeoutAt: number;
  createdAt: number;
  updatedAt: number;
}

/** How a task upstream is called: the channel, one of its credentials, a deadline. */
export interface TaskCall {
  channel: Channel;
  apiKey: string;
  signal: AbortSignal;
  /** Bound on each upstream HTTP exchange. */
  timeoutMs: number;
  /** Size bounds on the upstream's answers; the defaults when absent. */
  limits?: UpstreamLimits;
  /** Unfinished tasks on this channel and account (the new one included), for upstreams that queue. */
  countOpen?: () => Promise<number>;
  /** Checks addresses an upstream names (media to download) and connects only to allowed ones. */
  outbound?: OutboundGuard;
}

/** What an upstream answered to a submission. */
export interface SubmitOutcome {
  upstreamId: string;
  /** Default SUBMITTED. NOT_START means queued behind other work; MODAL waits for a modal submission. */
  status?: TaskStatus;
  progress?: number;
  /** How many tasks are ahead when queued. */
  queuePosition?: number;
  upstreamData?: JsonObject | null;
  startTime?: number | null;
}

/** The state of one task as the upstream reports it. */
export interface Observation<Result extends object = JsonObject> {
  status: TaskStatus;
  progress: number;
  failReason?: string;
  startTime?: number;
  /** When the upstream says it finished (final states); default: when the gateway saw it. */
  finishTime?: number;
  /** Result fields in the kind's shape (merged into the stored result). */
  result?: Partial<Result>;
  /** Media addresses known to the upstream only; used by fetchMedia, never stored. */
  mediaUrls?: string[];
  /** The upstream suggests looking again this soon (ms), e.g. the simulator's next step. */
  nextPollInMs?: number;
}

export interface MediaItem {
  bytes: Buffer;
  contentType: string;
  /** Pixel size, when known (images). */
  width?: number;
  height?: number;
  /** What the object is to its task when a task keeps several kinds (e.g. `video`, `thumbnail`). */
  role?: string;
  /** When the object stops being served (epoch ms; written into its key); absent: it is kept. */
  expiresAt?: number;
}

/** A stored media object, as referenced from a task's result. */
export interface MediaRef {
  key: string;
  contentType: string;
  size: number;
  width?: number;
  height?: number;
  role?: string;
}

/** A task kind's typed view of its stored JSON (made by `defineTaskKind`, task-kind.ts). */
export interface TaskKind<Request extends object, Result extends object> {
  /** The family name stored on its tasks (`images`, `videos`). */
  readonly family: string;
  request(task: TaskRecord): Request;
  result(task: TaskRecord): Result | null;
  /** The request as the engine stores it. */
  requestJson(request: Request): JsonObject;
}

/**
 * An upstream that runs tasks of one kind, for one channel type: the image
 * simulator and the ig-proxy for images; the video simulator, openai-videos
 * and wan for videos. `Request` and `Result` are the kind's shapes, read
 * through `kind`; `Payload` is what a submission carries beyond the stored
 * request.
 */
export interface TaskUpstream<Request extends object = JsonObject, Result extends object = JsonObject, Payload = unknown> {
  /** The kind run, with the typed view of its tasks. */
  readonly kind: TaskKind<Request, Result>;
  /** The channel type served (`simulator`, `ig-proxy`, …). */
  readonly type: string;
  /** Most tasks one `poll` call takes (a list-by-ids request); default 100. */
  readonly maxPollBatch?: number;
  /**
   * Hands a new task to the upstream. `payload` carries what is too large or
   * too transient to store with the task (image bytes). Throws a GatewayError
   * (retryable ones let the caller try another channel).
   */
  submit(task: TaskRecord, payload: Payload, call: TaskCall): Promise<SubmitOutcome>;
  /** Reads the state of many tasks of one channel at once; tasks without news are left out. */
  poll(tasks: TaskRecord[], call: TaskCall): Promise<Map<string, Observation<Result>>>;
  /** Produces the result media of a task that reached SUCCESS (painted, or fetched from the upstream). */
  fetchMedia?(task: TaskRecord, observation: Observation<Result>, call: TaskCall): Promise<MediaItem[]>;
}

/** Any kind's upstream, as the engine holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
// biome-ignore lint/suspicious/noExplicitAny: a registry of upstreams of different request, state and result types; each is checked where it is defined
export type AnyTaskUpstream = TaskUpstream<any, any, any>;

/** What a family plugs into the engine. */
export interface TaskFamily {
  readonly name: string;
  /** The JSON a client sees for a task (also the callback body). */
  render(task: TaskRecord): unknown;
  /** The model name a task is logged and priced under (e.g. `ig_imagine`). */
  modelOf(task: TaskRecord): string;
}
