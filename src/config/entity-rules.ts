/**
 * The rules a key or channel must meet, shared by the admin API, the config
 * file and the code that reads stored records back, so that nothing which
 * could fail later is ever stored, and a stored record that fails them anyway
 * is recognised and set aside rather than failing requests that use it.
 */
import { isIP } from 'node:net';
import type { Channel } from '../core/channel.js';
import { CHANNEL_TYPES, channelType } from '../upstreams/registry.js';
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

/** The first problem with a channel as it would be stored, or undefined when it is sound. */
export function channelProblem(channel: ChannelShape): { field: string; message: string } | undefined {
  // The type list (with what each type needs and its settings readers) is the upstream registry's.
  const entry = channelType(channel.type);
  if (!entry) return { field: 'type', message: `must be one of ${CHANNEL_TYPES.map((known) => known.type).join(', ')}` };
  if (channel.baseUrl !== '' && !isHttpUrl(channel.baseUrl)) return { field: 'baseUrl', message: 'must be an http(s) URL' };
  if (channel.baseUrl === '' && entry.needs.baseUrl) return { field: 'baseUrl', message: `required for type ${entry.type} (an absolute http(s) URL)` };
  if (channel.apiKeys?.some((key) => key === '')) return { field: 'apiKey', message: 'must not be empty (leave it out for a keyless channel)' };
  if (channel.apiKeys?.length === 0 && entry.needs.credentials) return { field: 'apiKey', message: `required for type ${entry.type}` };
  if (channel.models === undefined && !entry.defaultModels)
    return { field: 'models', message: `required for type ${entry.type}: list the model names or patterns it serves (\`*\` for every model)` };
  const listed = channel.settings.listedModels;
  if (listed !== undefined && !(Array.isArray(listed) && listed.every((name) => typeof name === 'string' && name !== '' && !name.endsWith('*'))))
    return { field: 'settings', message: 'listedModels must be a list of exact model names (the names /v1/models shows for pattern entries)' };
  // A cost table is valid on every type, so it is checked here rather than by a type's readers.
  try {
    readChannelCosts(channel.settings);
  } catch (error) {
    return { field: `settings.${COSTS_SETTING}`, message: (error as Error).message };
  }
  // The readers see a fresh object each time, so none of their caches keeps a rejected value.
  const probe = { name: channel.name, type: channel.type, baseUrl: channel.baseUrl, settings: channel.settings } as Channel;
  for (const read of entry.settings) {
    try {
      read({ ...probe });
    } catch (error) {
      return { field: 'settings', message: error instanceof Error ? error.message : String(error) };
    }
  }
  return undefined;
}
