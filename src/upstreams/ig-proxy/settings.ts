/**
 * The ig-proxy channel's vendor words, all in its settings because each real
 * image-task service names them its own way: the path prefix of its API, the
 * header carrying the channel's secret, the bot-type values and the customId
 * prefix of its buttons.
 */
import { builtOnce } from '../../core/built-once.js';
import { z } from 'zod';
import type { Channel } from '../../core/channel.js';
import { GatewayError } from '../../core/errors.js';
import type { BotType } from '../../tasks/image-contract.js';
import { accountsSetting } from '../accounts-setting.js';
import { byteLimit, numberLike } from '../settings-schema.js';
import { typedChannelSettings, type TypedSettingsOf } from '../typed-settings.js';

/** A vendor word: empty or null stands for the default. */
const vendorWord = (pattern: RegExp, fallback: string, description: string, read: (word: string) => string = (word) => word) =>
  z
    .union([z.string().regex(pattern, `must be a string matching ${pattern}`), z.literal(''), z.null()], { error: `must be a string matching ${pattern}` })
    .optional()
    .meta({ default: fallback })
    .transform((value) => read(value || fallback))
    .describe(description);

const BOT_TYPES: readonly BotType[] = ['MID_GEN', 'NIJI_GEN'];

export const igProxySettingsShape = builtOnce(
  () =>
    ({
      pathPrefix: vendorWord(/^(\/[A-Za-z0-9._~-]+)*$/, '/ig', "The path prefix of the service's API."),
      // Header names are case-insensitive; undici sends them as given, so they are kept in one case.
      secretHeader: vendorWord(/^[A-Za-z0-9-]+$/, 'ig-api-secret', "The header carrying the channel's API key (`authorization` sends `Bearer <key>`).", (word) => word.toLowerCase()),
      botTypes: z
        .record(z.string(), z.string().min(1, 'must be a non-empty string'), { error: 'must be an object such as {"MID_GEN": "…"}' })
        .nullish()
        .transform((words) => Object.fromEntries(BOT_TYPES.map((botType) => [botType, words?.[botType] ?? botType])) as Record<BotType, string>)
        .describe('The service\'s words for the bot types, e.g. `{"MID_GEN": "…", "NIJI_GEN": "…"}`. Default the names themselves.'),
      customIdPrefix: vendorWord(/^[A-Za-z0-9_]+$/, 'IG', "The prefix of the service's button customIds."),
      faceSwapPath: vendorWord(/^(\/[A-Za-z0-9._~-]+)+$/, '/insight-face/swap', 'The path of face swap under the prefix.'),
      maxImageBytes: byteLimit(32 * 1024 * 1024, 'Largest image accepted from the service, in bytes.'),
      imageWaitMs: numberLike({
        min: 1,
        integer: true,
        rule: 'a positive integer (milliseconds)',
        description: 'How long a `/v1/images/generations` request served by the channel waits for its imagine tasks, in ms; past it the client gets a 504 and is charged nothing.',
        default: 120_000,
      }),
      accounts: accountsSetting(),
    }) as const,
);

export const igProxySettings = typedChannelSettings('ig-proxy', igProxySettingsShape);

export type IgProxySettings = TypedSettingsOf<typeof igProxySettingsShape>;

/** An ig-proxy channel's settings, typed (see typed-settings.ts); the channel must have the service's origin. */
export function readIgProxySettings(channel: Channel): IgProxySettings {
  if (!channel.baseUrl) throw new GatewayError('internal', `ig-proxy channel ${channel.name}: setting baseUrl must be set (the upstream service origin)`);
  return igProxySettings.of(channel);
}
