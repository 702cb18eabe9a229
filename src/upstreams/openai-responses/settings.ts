/** The openai-responses channel's settings: the Responses protocol's keys (protocols/responses/settings.ts); the type adds none of its own. */
import { responsesLooseWhenStored, responsesSettingsShape } from '../protocols/responses/settings.js';
import { typedChannelSettings, type SettingsHolder, type TypedSettings } from '../typed-settings.js';

export const openAiResponsesSettingsShape = { ...responsesSettingsShape } as const;

export const openAiResponsesSettings = typedChannelSettings('openai-responses', openAiResponsesSettingsShape, responsesLooseWhenStored);

/** An openai-responses channel's settings as its schema outputs them, every default filled in. */
export type OpenAiResponsesSettings = TypedSettings<typeof openAiResponsesSettingsShape>;

/** A channel's settings, typed (see typed-settings.ts). */
export const openAiResponsesSettingsOf = (channel: SettingsHolder): OpenAiResponsesSettings => openAiResponsesSettings.of(channel);
