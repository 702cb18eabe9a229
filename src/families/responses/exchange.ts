/**
 * One Responses request from start to end: the gateway's id for the answer,
 * the echo of the request's settings, the conversation it continues, and the
 * recording of the finished answer (when `store` is on) before its last bytes
 * reach the client, so a follow-up request can always build on it.
 */
import type { ChatResponse } from '../../core/chat.js';
import type { ResponseRepository, StoredResponse } from '../../storage/responses.js';
import { resolvedInput, type SourcedItem } from './conversation.js';
import { outputFromCore } from './from-core.js';
import type { History } from './history.js';
import { newResponsesId } from './ids.js';
import { includeOptions, visibleItems, withIds, type IncludeOptions } from './items.js';
import { baseResponse, finishResponse } from './response-object.js';
import { ToolNames } from './tool-names.js';
import type { ValidatedRequest } from './validate.js';
import type { CompactionOutputItem, ResponseObject } from '../../dialects/responses/wire.js';
import type { ReasoningSealer } from '../../core/reasoning-state.js';
import { asksForCompaction, compactionItem, openSummary } from './compaction.js';
import type { InputItem } from '../../dialects/responses/schema-items.js';
import { GatewayError } from '../../core/errors.js';

export interface ExchangeOptions {
  request: ValidatedRequest;
  keyId: string;
  history: History;
  /** This request's input items, references resolved where they could be. */
  current: SourcedItem[];
  repository: ResponseRepository;
  /** Called when recording fails: the answer still goes out, the failure is only logged. */
  onRecordError: (error: unknown) => void;
  /** Seals the summaries of compactions the gateway performs and opens them on later turns. */
  sealer: ReasoningSealer;
  /**
   * Record a `store: false` answer too: the repository is a WebSocket's, which
   * keeps such turns in memory for the connection only (connection-local state).
   */
  keepUnstored?: boolean;
}

/** Where an answer came from, kept with it for later turns. */
export interface Origin {
  channelId: string | null;
  /** Served by an upstream speaking this dialect natively (its item ids are its own). */
  native: boolean;
  /** The upstream's own id for the answer, when the upstream stored it too. */
  upstreamResponseId: string | null;
}

const translated: Origin = { channelId: null, native: false, upstreamResponseId: null };

export class ResponsesExchange {
  readonly id = newResponsesId('resp');
  readonly createdAt = Math.floor(Date.now() / 1000);
  readonly include: IncludeOptions;
  /** Whether reasoning items show the thought as a summary (the client asked for summaries). */
  readonly summaries: boolean;
  /** The sequence number of the next stream event, shared by every encoder of this exchange. */
  sequence = 0;
  /** The flat tool names of the translated request (filled by to-core), to name tool calls as the client knows them. */
  readonly toolNames = new ToolNames();
  /** The client asked for a compaction (a `compaction_trigger` item): a translated answer is one compaction item. */
  readonly compacting: boolean;

  constructor(readonly options: ExchangeOptions) {
    this.compacting = asksForCompaction(options.current);
    this.include = includeOptions(options.request.include);
    const reasoning = options.request.reasoning;
    this.summaries = (reasoning?.summary ?? reasoning?.generate_summary) != null;
  }

  get request(): ValidatedRequest {
    return this.options.request;
  }

  get stores(): boolean {
    return this.options.request.store !== false;
  }

  /** Whether the finished answer is recorded: stored, or kept for the connection it came on. */
  get records(): boolean {
    return this.stores || this.options.keepUnstored === true;
  }

  /** The response object before any output: status in_progress, usage null. */
  base(): ResponseObject {
    return baseResponse({ id: this.id, createdAt: this.createdAt }, this.options.request);
  }

  /** The object the client sees: reasoning without `encrypted_content` unless it asked for it. */
  visible(response: ResponseObject): ResponseObject {
    return this.include.encryptedReasoning ? response : { ...response, output: visibleItems(response.output, this.include) };
  }

  /** The summary inside a compaction item this gateway sealed on an earlier turn. */
  readonly openSummary = (item: InputItem): string | undefined => openSummary(this.options.sealer, item);

  /**
   * The one output item of a compaction the gateway performed, holding the
   * summary sealed. An upstream that wrote no summary failed the compaction:
   * an empty item would silently lose the conversation.
   */
  compactionOutput(summary: string): CompactionOutputItem {
    if (summary.trim() === '') throw new GatewayError('upstream_error', 'the upstream wrote no summary for the compaction');
    return compactionItem(this.options.sealer, summary);
  }

  /** A translated plain answer: rendered, recorded, then shown (at once, no promise, when nothing is stored). */
  completePlain(answer: ChatResponse): ResponseObject | Promise<ResponseObject> {
    const response = this.base();
    response.output = this.compacting ? [this.compactionOutput(answerText(answer))] : outputFromCore(answer, { summaries: this.summaries, toolNames: this.toolNames });
    finishResponse(response, answer.finishReason, answer.usage);
    if (!this.records) return this.visible(response);
    return this.record(response, translated).then(() => this.visible(response));
  }

  /** Stores the finished answer with this turn's input (nothing when `store` is false, unless kept for the connection). */
  async record(response: ResponseObject | Record<string, unknown>, origin: Origin = translated): Promise<void> {
    if (!this.records) return;
    const previous = this.options.history.previous;
    const record: StoredResponse = {
      id: this.id,
      keyId: this.options.keyId,
      previousResponseId: previous?.id ?? null,
      chain: previous ? [...previous.chain, previous.id] : [],
      response: response as StoredResponse['response'],
      input: withIds(resolvedInput(this.options.current)),
      channelId: origin.channelId,
      native: origin.native,
      upstreamResponseId: origin.upstreamResponseId,
      createdAt: Date.now(),
    };
    try {
      await this.options.repository.save(record);
    } catch (error) {
      this.options.onRecordError(error);
    }
  }
}

/** The text of an answer (a summary): its text parts, joined. */
export function answerText(answer: ChatResponse): string {
  return answer.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
