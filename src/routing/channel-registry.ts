/**
 * The in-memory view of the channels, decrypted and ready to call. It is
 * rebuilt from storage at start, after every admin change made through this
 * instance, and on a timer (changes made by the CLI or other instances).
 * A stored channel that cannot be used (credentials that do not open,
 * settings its type rejects) stays listed, disabled, with its reason
 * (`unusable()`): it counts as configured but serves nothing, and one such
 * record never fails a refresh.
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
import { channelProblem, channelSettingWarnings, parsedChannelSettings } from '../config/entity-rules.js';
import { readChannelCosts, type ChannelCosts } from '../config/channel-costs.js';
import type { ChannelRecord, Store } from '../storage/types.js';
import { servesModel, type Channel } from '../core/channel.js';
import { RefreshTimer } from '../core/refresh-timer.js';

/** Model names come from clients: the memo of who serves what stays this small. */
const SERVING_MEMO_LIMIT = 1000;

export interface SecretOpener {
  open(sealed: string): string;
  /** Looks for a changed secret key (rotated, restored) before each refresh. */
  recheck?(): Promise<unknown>;
}

/** A configured channel that serves nothing, and why (shown by the admin API and /readyz). */
export interface UnusableChannel {
  id: string;
  name: string;
  problem: string;
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
  private readonly timer = new RefreshTimer();

  private unusableChannels: UnusableChannel[] = [];
  /** Each channel's parsed cost table, built once per refresh so that settling a request only looks it up. */
  private costTables = new Map<string, ChannelCosts>();

  /** Channels already reported as unusable, so each is logged once per change, not on every refresh. */
  private readonly reported = new Map<string, string>();
  /** Per channel id, the settings it keeps but the gateway ignores, as of the last refresh. */
  private ignored = new Map<string, readonly string[]>();
  private loadingIgnored = new Map<string, readonly string[]>();
  /** Channels whose ignored settings were already named, likewise once per change. */
  private readonly warned = new Map<string, string>();

  constructor(
    private readonly store: Store,
    private readonly secrets: SecretOpener,
    private readonly options: RegistryOptions = { simulatorFallback: true },
    /** Told once about a stored channel that cannot be used (write-time rules, credentials that do not open); it serves nothing. */
    private readonly onInvalid: (record: ChannelRecord, problem: string) => void = () => {},
    /** Told once about a stored channel that serves but keeps settings the gateway ignores (unknown keys, bad values of leniently read keys). */
    private readonly onIgnoredSettings: (record: ChannelRecord, warnings: string[]) => void = () => {},
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

  /** The configured channels that serve nothing because they cannot be used, as of the last refresh. */
  unusable(): readonly UnusableChannel[] {
    return this.unusableChannels;
  }

  /** The channel's cost table (what its provider charges), as of the last refresh; undefined when it has none. */
  costsOf(channelId: string): ChannelCosts | undefined {
    return this.costTables.get(channelId);
  }

  /** The settings a serving channel keeps but the gateway ignores, one sentence each (empty when none). */
  ignoredSettingsOf(id: string): readonly string[] {
    return this.ignored.get(id) ?? [];
  }

  problemOf(id: string): string | undefined {
    return this.unusableChannels.find((entry) => entry.id === id)?.problem;
  }

  /** Never throws for one record: a channel that cannot be used is kept, disabled, with its reason. */
  async refresh(): Promise<void> {
    await this.secrets.recheck?.();
    const records = await this.store.channels.list();
    const unusable: UnusableChannel[] = [];
    this.loadingIgnored = new Map();
    const configured = records.map((record) => this.usable(record, unusable));
    this.ignored = this.loadingIgnored;
    this.configuredCount = configured.length;
    // Counted from the stored records: a disabled or broken provider channel still ends the fallback.
    this.providerCount = records.filter((record) => record.type !== DEFAULT_SIMULATOR_CHANNEL.type).length;
    this.channels = this.hasSimulatorFallback ? [...configured, DEFAULT_SIMULATOR_CHANNEL] : configured;
    this.unusableChannels = unusable;
    this.costTables = costTablesOf(configured);
    this.servingMemo = new Map();
  }

  /**
   * A stored channel that would fail when used (written before the rules
   * existed or by hand, or whose credentials do not open) is disabled here,
   * so it never breaks a request that could have gone elsewhere.
   */
  private usable(record: ChannelRecord, unusable: UnusableChannel[]): Channel {
    let channel: Channel;
    let problem: string | undefined;
    try {
      channel = channelFromRecord(record, this.secrets);
    } catch (error) {
      channel = channelFromRecord({ ...record, apiKeysEncrypted: [] }, this.secrets);
      problem = `apiKey: ${(error as Error).message}`;
    }
    if (!problem && channel.enabled) {
      const rule = channelProblem(channel, { stored: true });
      if (rule) problem = `${rule.field}: ${rule.message}`;
      else this.warnOnce(record, channelSettingWarnings(channel));
    }
    // Parsed here, once per refresh, so no request parses a channel's settings.
    if (!problem) return channel.enabled ? { ...channel, settings: parsedChannelSettings(channel) } : channel;
    unusable.push({ id: record.id, name: record.name, problem });
    const report = `${record.updatedAt}:${problem}`;
    if (this.reported.get(record.id) !== report) {
      this.reported.set(record.id, report);
      this.onInvalid(record, problem);
    }
    return { ...channel, apiKeys: [], enabled: false };
  }

  /** Names, once per change of the record, the settings a serving channel keeps but the gateway ignores. */
  private warnOnce(record: ChannelRecord, warnings: string[]): void {
    if (warnings.length > 0) this.loadingIgnored.set(record.id, warnings);
    if (warnings.length === 0) {
      this.warned.delete(record.id);
      return;
    }
    const report = `${record.updatedAt}:${warnings.join('|')}`;
    if (this.warned.get(record.id) === report) return;
    this.warned.set(record.id, report);
    this.onIgnoredSettings(record, warnings);
  }

  startAutoRefresh(intervalMs: number, onError: (error: unknown) => void): void {
    this.timer.start(intervalMs, () => this.refresh(), onError);
  }

  stop(): void {
    this.timer.stop();
  }
}

/** The cost tables of the channels that have one; a table the rules refuse (a disabled channel's) is left out. */
function costTablesOf(channels: readonly Channel[]): Map<string, ChannelCosts> {
  const tables = new Map<string, ChannelCosts>();
  for (const channel of channels) {
    try {
      const costs = readChannelCosts(channel.settings);
      if (costs) tables.set(channel.id, costs);
    } catch {
      // A disabled channel is not checked by the rules and serves nothing, so its table is never needed.
    }
  }
  return tables;
}
