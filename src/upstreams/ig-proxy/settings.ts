/**
 * The ig-proxy channel's vendor words, all in `channel.settings` because each
 * real image-task service names them its own way: the path prefix of its
 * API, the header carrying the channel's secret, the bot-type values and the
 * customId prefix of its buttons.
 */
import { z } from 'zod';
import { GatewayError } from '../../core/errors.js';
import { accountsSetting } from '../accounts-setting.js';
import { byteLimit } from '../settings-schema.js';
import type { BotType } from '../../tasks/image-contract.js';
import type { Channel } from '../../core/channel.js';

export interface IgProxySettings {
  /** e.g. `/ig` (default) or the vendor's own prefix. */
  pathPrefix: string;
  /** Header that carries the channel's API key (default `ig-api-secret`; `authorization` sends `Bearer <key>`). */
  secretHeader: string;
  /** Upstream words for the bot types. */
  botTypes: Record<BotType, string>;
  /** Prefix of the upstream's customIds (default `IG`). */
  customIdPrefix: string;
  /** Path of face swap under the prefix (default `/insight-face/swap`). */
  faceSwapPath: string;
  /** Largest image accepted from the upstream, in bytes. */
  maxImageBytes: number;
}

function invalid(channel: Channel, key: string, rule: string): GatewayError {
  return new GatewayError('internal', `ig-proxy channel ${channel.name}: setting ${key} must be ${rule}`);
}

function word(channel: Channel, key: string, fallback: string, pattern: RegExp): string {
  const value = channel.settings[key];
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value !== 'string' || !pattern.test(value)) throw invalid(channel, key, `a string matching ${pattern}`);
  return value;
}

const cache = new WeakMap<Channel, IgProxySettings>();

export function readIgProxySettings(channel: Channel): IgProxySettings {
  const cached = cache.get(channel);
  if (cached) return cached;
  if (!channel.baseUrl) throw invalid(channel, 'baseUrl', 'set (the upstream service origin)');
  const botTypes = channel.settings.botTypes ?? {};
  if (typeof botTypes !== 'object' || botTypes === null) throw invalid(channel, 'botTypes', 'an object such as {"MID_GEN": "…"}');
  const words = botTypes as Record<string, unknown>;
  for (const [key, value] of Object.entries(words)) {
    if (typeof value !== 'string' || value === '') throw invalid(channel, `botTypes.${key}`, 'a non-empty string');
  }
  const maxImageBytes = channel.settings.maxImageBytes ?? 32 * 1024 * 1024;
  if (typeof maxImageBytes !== 'number' || !Number.isInteger(maxImageBytes) || maxImageBytes <= 0) {
    throw invalid(channel, 'maxImageBytes', 'a positive integer');
  }
  const settings: IgProxySettings = {
    pathPrefix: word(channel, 'pathPrefix', '/ig', /^(\/[A-Za-z0-9._~-]+)*$/).replace(/\/+$/, ''),
    secretHeader: word(channel, 'secretHeader', 'ig-api-secret', /^[A-Za-z0-9-]+$/).toLowerCase(),
    botTypes: {
      MID_GEN: (words.MID_GEN as string | undefined) ?? 'MID_GEN',
      NIJI_GEN: (words.NIJI_GEN as string | undefined) ?? 'NIJI_GEN',
    },
    customIdPrefix: word(channel, 'customIdPrefix', 'IG', /^[A-Za-z0-9_]+$/),
    faceSwapPath: word(channel, 'faceSwapPath', '/insight-face/swap', /^(\/[A-Za-z0-9._~-]+)+$/),
    maxImageBytes,
  };
  cache.set(channel, settings);
  return settings;
}

/** A vendor word: empty or null stands for the default. */
const vendorWord = (pattern: RegExp, fallback: string, description: string) =>
  z
    .union([z.string().regex(pattern, `must be a string matching ${pattern}`), z.literal(''), z.null()], { error: `must be a string matching ${pattern}` })
    .optional()
    .describe(description)
    .meta({ default: fallback });

export const igProxySettingsShape = {
  pathPrefix: vendorWord(/^(\/[A-Za-z0-9._~-]+)*$/, '/ig', "The path prefix of the service's API."),
  secretHeader: vendorWord(/^[A-Za-z0-9-]+$/, 'ig-api-secret', "The header carrying the channel's API key (`authorization` sends `Bearer <key>`)."),
  botTypes: z
    .record(z.string(), z.string().min(1, 'must be a non-empty string'), { error: 'must be an object such as {"MID_GEN": "…"}' })
    .nullish()
    .describe('The service\'s words for the bot types, e.g. `{"MID_GEN": "…", "NIJI_GEN": "…"}`. Default the names themselves.'),
  customIdPrefix: vendorWord(/^[A-Za-z0-9_]+$/, 'IG', "The prefix of the service's button customIds."),
  faceSwapPath: vendorWord(/^(\/[A-Za-z0-9._~-]+)+$/, '/insight-face/swap', 'The path of face swap under the prefix.'),
  maxImageBytes: byteLimit(32 * 1024 * 1024, 'Largest image accepted from the service, in bytes.'),
  accounts: accountsSetting,
} as const;
