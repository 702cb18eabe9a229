/**
 * The rules a key or channel must meet, shared by the admin API, the config
 * file and the code that reads stored records back, so that nothing which
 * could fail later is ever stored, and a stored record that fails them anyway
 * is recognised and set aside rather than failing requests that use it.
 */
import { isIP } from 'node:net';
import type { Channel } from '../core/channel.js';
import { CHANNEL_TYPES, channelType } from '../upstreams/registry.js';

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
  settings: Record<string, unknown>;
}

/** The first problem with a channel as it would be stored, or undefined when it is sound. */
export function channelProblem(channel: ChannelShape): { field: string; message: string } | undefined {
  // The type list (with each type's settings readers) is the upstream registry's.
  const readers = channelType(channel.type)?.settings;
  if (!readers) return { field: 'type', message: `must be one of ${CHANNEL_TYPES.map((entry) => entry.type).join(', ')}` };
  if (channel.baseUrl !== '' && !isHttpUrl(channel.baseUrl)) return { field: 'baseUrl', message: 'must be an http(s) URL' };
  const listed = channel.settings.listedModels;
  if (listed !== undefined && !(Array.isArray(listed) && listed.every((name) => typeof name === 'string' && name !== '' && !name.endsWith('*'))))
    return { field: 'settings', message: 'listedModels must be a list of exact model names (the names /v1/models shows for pattern entries)' };
  // The readers see a fresh object each time, so none of their caches keeps a rejected value.
  const probe = { name: channel.name, type: channel.type, baseUrl: channel.baseUrl, settings: channel.settings } as Channel;
  for (const read of readers) {
    try {
      read({ ...probe });
    } catch (error) {
      return { field: 'settings', message: error instanceof Error ? error.message : String(error) };
    }
  }
  return undefined;
}
