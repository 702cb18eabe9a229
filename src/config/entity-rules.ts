/**
 * The rules a key or channel must meet, shared by the admin API, the config
 * file and the code that reads stored records back, so that nothing which
 * could fail later is ever stored, and a stored record that fails them anyway
 * is recognised and set aside rather than failing requests that use it.
 */
import { isIP } from 'node:net';
import { accountsOf } from '../tasks/image-accounts.js';
import { readIgProxySettings } from '../upstreams/ig-proxy/settings.js';
import { readOpenAiVideosSettings } from '../upstreams/openai-videos/settings.js';
import { readImageSimulatorSettings } from '../upstreams/simulator/images/settings.js';
import { readSimulatorSettings } from '../upstreams/simulator/settings.js';
import { readVideoSimulatorSettings } from '../upstreams/simulator/videos/settings.js';
import type { Channel } from '../core/channel.js';
import { readWanSettings } from '../upstreams/wan/settings.js';

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

type SettingsReader = (channel: Channel) => unknown;

/**
 * Every channel type a chat adapter or a task upstream serves, with the
 * readers that check its `settings` (each throws a message naming the
 * setting). A simulator channel serves chat, images and video, so all three
 * simulator readers apply. Types needing a base URL say so in their readers.
 */
const SETTINGS_READERS: Record<string, SettingsReader[]> = {
  simulator: [readSimulatorSettings, readImageSimulatorSettings, readVideoSimulatorSettings, accountsOf],
  anthropic: [],
  gemini: [],
  'openai-chat': [],
  'openai-responses': [],
  'ig-proxy': [readIgProxySettings, accountsOf],
  'openai-videos': [readOpenAiVideosSettings],
  wan: [readWanSettings],
};

export const CHANNEL_TYPES: readonly string[] = Object.keys(SETTINGS_READERS);

export interface ChannelShape {
  name: string;
  type: string;
  baseUrl: string;
  settings: Record<string, unknown>;
}

/** The first problem with a channel as it would be stored, or undefined when it is sound. */
export function channelProblem(channel: ChannelShape): { field: string; message: string } | undefined {
  const readers = Object.hasOwn(SETTINGS_READERS, channel.type) ? SETTINGS_READERS[channel.type] : undefined;
  if (!readers) return { field: 'type', message: `must be one of ${CHANNEL_TYPES.join(', ')}` };
  if (channel.baseUrl !== '' && !isHttpUrl(channel.baseUrl)) return { field: 'baseUrl', message: 'must be an http(s) URL' };
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
