/**
 * The rules a key or channel must meet, shared by the admin API, the config
 * file and the code that reads stored records back, so that nothing which
 * could fail later is ever stored, and a stored record that fails them anyway
 * is recognised and set aside rather than failing requests that use it.
 */
import { isIP } from 'node:net';
import { CHANNEL_TYPES, channelType } from '../upstreams/registry.js';
import { checkChannelSettings, parseStoredSettings } from '../upstreams/settings-check.js';
import { COSTS_SETTING, readChannelCosts } from './channel-costs.js';

/** An IPv4 or IPv6 address, or a CIDR range whose prefix length fits its family. */
export function isIpOrCidr(text: string): boolean {
  const slash = text.indexOf('/');
  const address = slash === -1 ? text : text.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return false;
  if (slash === -1) return true;
  const bits = text.slice(slash + 1);
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

export const IP_OR_CIDR_MESSAGE = 'must be an IP address or CIDR range such as 10.0.0.0/8';

/** An absolute http(s) URL; anything else (`file:`, `not a url`) is refused. */
export function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const { protocol } = new URL(text);
  return protocol === 'http:' || protocol === 'https:';
}

export interface ChannelShape {
  name: string;
  type: string;
  baseUrl: string;
  /** The credentials in the clear; absent where only the settings are being checked. */
  apiKeys?: readonly string[];
  /** Absent: the operator listed none (the type's default, if it has one, applies). */
  models?: readonly string[];
  settings: Record<string, unknown>;
}

/** The models a channel serves when its declaration lists none: the type's default, else none. */
export function declaredModels(type: string, models: readonly string[] | undefined): string[] {
  return [...(models ?? channelType(type)?.defaultModels ?? [])];
}

export interface ChannelRuleOptions {
  /**
   * The channel was read back from storage: an unknown setting, or a bad value
   * of a setting that was read leniently before it was checked, is ignored
   * (see `channelSettingWarnings`) rather than making the channel unusable.
   */
  stored?: boolean;
}

/** What a stored channel keeps in its settings but the gateway ignores, one sentence each; empty for an unknown type. */
export function channelSettingWarnings(channel: ChannelShape): string[] {
  const entry = channelType(channel.type);
  return entry ? checkChannelSettings(entry.type, entry.settings, channel.settings, true).warnings : [];
}

/** A stored channel's settings as its adapters read them: parsed by its type's schema, once per load (see parseStoredSettings). */
export function parsedChannelSettings(channel: ChannelShape): Record<string, unknown> {
  const entry = channelType(channel.type);
  return entry ? parseStoredSettings(entry.type, entry.settings, channel.settings) : channel.settings;
}

/** The first problem with a channel as it would be stored, or undefined when it is sound. */
export function channelProblem(channel: ChannelShape, options: ChannelRuleOptions = {}): { field: string; message: string } | undefined {
  // The type list (with what each type needs and its settings schema) is the upstream registry's.
  const entry = channelType(channel.type);
  if (!entry) return { field: 'type', message: `must be one of ${CHANNEL_TYPES.map((known) => known.type).join(', ')}` };
  if (channel.baseUrl !== '' && !isHttpUrl(channel.baseUrl)) return { field: 'baseUrl', message: 'must be an http(s) URL' };
  if (channel.baseUrl === '' && entry.needs.baseUrl && !suppliesBaseUrl(entry.needs.baseUrlFrom, channel.settings)) {
    const unless = entry.needs.baseUrlFrom ? ` unless settings.${entry.needs.baseUrlFrom} is set` : '';
    return { field: 'baseUrl', message: `required for type ${entry.type} (an absolute http(s) URL)${unless}` };
  }
  if (channel.apiKeys?.some((key) => key === '')) return { field: 'apiKey', message: 'must not be empty (leave it out for a keyless channel)' };
  if (channel.apiKeys?.length === 0 && entry.needs.credentials) return { field: 'apiKey', message: `required for type ${entry.type}` };
  const keyProblem = entry.keyProblem && channel.apiKeys ? malformedKey(entry.keyProblem, channel.apiKeys, channel.settings) : undefined;
  if (keyProblem) return keyProblem;
  if (channel.models === undefined && !entry.defaultModels) return { field: 'models', message: `required for type ${entry.type}: list the model names or patterns it serves (\`*\` for every model)` };
  // The schema sees a cost table as a record; its entries are checked against the price schema here, above the upstreams.
  try {
    readChannelCosts(channel.settings);
  } catch (error) {
    return { field: `settings.${COSTS_SETTING}`, message: (error as Error).message };
  }
  const settings = checkChannelSettings(entry.type, entry.settings, channel.settings, options.stored === true);
  if (settings.problem) return settings.problem;
  return undefined;
}

/** The first key the type says can never serve, by its place in the list (never quoting it). */
function malformedKey(
  problemOf: (key: string, settings: Record<string, unknown>) => string | undefined,
  keys: readonly string[],
  settings: Record<string, unknown>,
): { field: string; message: string } | undefined {
  for (let i = 0; i < keys.length; i++) {
    const problem = problemOf(keys[i], settings);
    if (problem) return { field: keys.length > 1 ? `apiKey[${i}]` : 'apiKey', message: problem };
  }
  return undefined;
}

/** Whether the setting that supplies a type's base URL is set (its value is checked with the other settings). */
function suppliesBaseUrl(setting: string | undefined, settings: Record<string, unknown>): boolean {
  return setting !== undefined && settings[setting] !== undefined;
}
