/** The anthropic channel's settings: the Messages protocol's keys (protocols/messages/settings.ts); the type adds none of its own. */
import { messagesLooseWhenStored, messagesSettingsShape } from '../protocols/messages/settings.js';
import { typedChannelSettings, type SettingsHolder, type TypedSettingsOf } from '../typed-settings.js';

export const anthropicSettingsShape = messagesSettingsShape;

export const anthropicSettings = typedChannelSettings('anthropic', anthropicSettingsShape, messagesLooseWhenStored);

/** An anthropic channel's settings as its schema outputs them, every default filled in. */
export type AnthropicSettings = TypedSettingsOf<typeof anthropicSettingsShape>;

/** A channel's settings, typed (see typed-settings.ts). */
export const anthropicSettingsOf = (channel: SettingsHolder): AnthropicSettings => anthropicSettings.of(channel);
