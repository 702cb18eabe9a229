/**
 * The anthropic channel's settings: the Messages protocol's keys
 * (protocols/messages/settings.ts) and `batchApi`, whether the server offers
 * Anthropic's Message Batches API (unset: where the base URL is Anthropic's).
 */
import { builtOnce } from '../../core/built-once.js';
import { z } from 'zod';
import { messagesLooseWhenStored, messagesSettingsShape } from '../protocols/messages/settings.js';
import { typedChannelSettings, type SettingsHolder, type TypedSettingsOf } from '../typed-settings.js';

export const anthropicSettingsShape = builtOnce(
  () =>
    ({
      ...messagesSettingsShape(),
      batchApi: z
        .boolean({ error: 'must be true or false' })
        .optional()
        .describe(
          "The server offers Anthropic's Message Batches API at `<base>/v1/messages/batches`: the requests of a client's Message Batch whose model this channel would serve first are sent as one upstream batch per model, at the upstream's batch price (docs/batches.md). Unset: true when the base URL is Anthropic's (`api.anthropic.com`, the default), false otherwise (most servers that speak the Messages API have no batch API).",
        ),
    }) as const,
);

export const anthropicSettings = typedChannelSettings('anthropic', anthropicSettingsShape, messagesLooseWhenStored);

/** An anthropic channel's settings as its schema outputs them, every default filled in. */
export type AnthropicSettings = TypedSettingsOf<typeof anthropicSettingsShape>;

/** A channel's settings, typed (see typed-settings.ts). */
export const anthropicSettingsOf = (channel: SettingsHolder): AnthropicSettings => anthropicSettings.of(channel);

/** Whether a channel's server takes the Message Batches API: the setting, else whether its base URL is Anthropic's. */
export function offersMessageBatches(settings: Pick<AnthropicSettings, 'batchApi'>, baseUrl: string): boolean {
  return settings.batchApi ?? (URL.canParse(baseUrl) && new URL(baseUrl).hostname === 'api.anthropic.com');
}
