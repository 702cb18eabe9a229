/** The openai-chat channel's settings: the Chat Completions protocol's keys (protocols/chat-completions/settings.ts); the type adds none of its own. */
import { chatCompletionsLooseWhenStored, chatCompletionsSettingsShape } from '../protocols/chat-completions/settings.js';
import { typedChannelSettings, type SettingsHolder, type TypedSettings } from '../typed-settings.js';

export const openAiChatSettingsShape = { ...chatCompletionsSettingsShape } as const;

export const openAiChatSettings = typedChannelSettings('openai-chat', openAiChatSettingsShape, chatCompletionsLooseWhenStored);

/** An openai-chat channel's settings as its schema outputs them, every default filled in. */
export type OpenAiChatSettings = TypedSettings<typeof openAiChatSettingsShape>;

/** A channel's settings, typed (see typed-settings.ts). */
export const openAiChatSettingsOf = (channel: SettingsHolder): OpenAiChatSettings => openAiChatSettings.of(channel);
