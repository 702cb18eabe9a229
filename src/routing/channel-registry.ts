/**
 * The in-memory view of the channels, decrypted and ready to call. It is
 * rebuilt from storage at start, after every admin change made through this
 * instance, and on a timer (changes made by the CLI or other instances).
 *
 * The built-in simulator serves every model (and image and video action)
 * only while no channel of a real provider is stored, so a fresh install
 * works offline. Once one is stored (enabled, disabled or broken alike), the
 * built-in simulator is gone and a model no channel serves is a 404: it never
 * answers in the name of a real model. An operator who wants simulated models
 * beside real ones adds a channel of type `simulator` listing them. While it
 * serves, it comes after the stored simulator channels (see
 * `orderCandidates`). `simulator: false` or SWITCHYARD_SIMULATOR=off turns it
 * off even with no channel.
 */
import { channelProblem } from '../config/entity-rules.js';
import type { ChannelRecord, Store } from '../storage/types.js';
import { servesModel, type Channel } from '../core/channel.js';

/** Model names come from clients: the memo of who serves what stays this small. */
const SERVING_MEMO_LIMIT = 1000;

export interface SecretOpener {
  open(sealed: string): string;
}

export const DEFAULT_SIMULATOR_CHANNEL: Channel = Object.freeze({
  id: 'builtin-simulator',
  name: 'builtin-simulator',
  type: 'simulator',
  baseUrl: '',
  apiKeys: [],
  models: ['*'],
  modelMapping: {},
  priority: 0,
  weight: 1,
  enabled: true,
  settings: {},
}) as Channel;

export function channelFromRecord(record: ChannelRecord, secrets: SecretOpener): Channel {
  return {
    id: record.id,
    name: record.name,
    type: record.type,
    baseUrl: record.baseUrl.replace(/\/+$/, ''),
    apiKeys: record.apiKeysEncrypted.map((sealed) => secrets.open(sealed)),
    models: record.models,
    modelMapping: record.modelMapping,
    priority: record.priority,
    weight: record.weight,
    enabled: record.status === 'enabled',
    settings: record.settings,
  };
}

/** The built-in simulator is only a fallback: chosen when no stored simulator channel serves the model. */
export function isFallbackChannel(channel: Channel): boolean {
  return channel.id === DEFAULT_SIMULATOR_CHANNEL.id;
}

export interface RegistryOptions {
  /** Whether the built-in simulator may serve while no channel of a real provider is stored. */
  simulatorFallback: boolean;
}

export class ChannelRegistry {
  private channels: Channel[] = [];
  private servingMemo = new Map<string, readonly Channel[]>();
  private configuredCount = 0;
  private providerCount = 0;
  private timer?: NodeJS.Timeout;

  /** Channels already reported as invalid, so each is logged once per change, not on every refresh. */
  private readonly reported = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly secrets: SecretOpener,
    private readonly options: RegistryOptions = { simulatorFallback: true },
    /** Told about a stored channel that fails the write-time rules; that channel is left disabled. */
    private readonly onInvalid: (record: ChannelRecord, problem: string) => void = () => {},
  ) {}

  /** All channels, the built-in simulator last while it serves. */
  all(): readonly Channel[] {
    return this.channels;
  }

  /**
   * The enabled channels that serve `model` (the simulator fallback included),
   * in `all()` order. Remembered per model until the next refresh, so routing
   * does not match every channel's patterns on every request.
   */
  serving(model: string): readonly Channel[] {
    let serving = this.servingMemo.get(model);
    if (!serving) {
      serving = this.channels.filter((channel) => channel.enabled && servesModel(channel, model));
      if (this.servingMemo.size >= SERVING_MEMO_LIMIT) this.servingMemo.clear();
      this.servingMemo.set(model, serving);
    }
    return serving;
  }

  /** No channel is configured and the built-in simulator serves every model. */
  get isDefaultSimulator(): boolean {
    return this.configuredCount === 0 && this.options.simulatorFallback;
  }

  /** The built-in simulator serves what no stored channel serves (no channel of a real provider is stored). */
  get hasSimulatorFallback(): boolean {
    return this.options.simulatorFallback && this.providerCount === 0;
  }

  /** Stored channels of a type other than `simulator`, whatever their state. */
  get providerChannelCount(): number {
    return this.providerCount;
  }

  async refresh(): Promise<void> {
    const records = await this.store.channels.list();
    const configured = records.map((record) => this.usable(channelFromRecord(record, this.secrets), record));
    this.configuredCount = configured.length;
    // Counted from the stored records: a disabled or broken provider channel still ends the fallback.
    this.providerCount = records.filter((record) => record.type !== DEFAULT_SIMULATOR_CHANNEL.type).length;
    this.channels = this.hasSimulatorFallback ? [...configured, DEFAULT_SIMULATOR_CHANNEL] : configured;
    this.servingMemo = new Map();
  }

  /**
   * A stored channel that would fail when used (written before the rules
   * existed, or by hand) is disabled here, so it never breaks a request that
   * could have gone elsewhere.
   */
  private usable(channel: Channel, record: ChannelRecord): Channel {
    if (!channel.enabled) return channel;
    const problem = channelProblem(channel);
    if (!problem) return channel;
    if (this.reported.get(record.id) !== record.updatedAt) {
      this.reported.set(record.id, record.updatedAt);
      this.onInvalid(record, `${problem.field}: ${problem.message}`);
    }
    return { ...channel, enabled: false };
  }

  startAutoRefresh(intervalMs: number, onError: (error: unknown) => void): void {
    if (intervalMs <= 0) return;
    this.timer = setInterval(() => this.refresh().catch(onError), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
