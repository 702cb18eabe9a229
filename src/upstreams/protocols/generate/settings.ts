/** The settings about speaking the content-generation dialect: none yet (the API version is where a provider addresses it, gemini/settings.ts). A provider includes the shape in its type's schema. */
import { builtOnce } from '../../../core/built-once.js';
import { typedChannelSettings, type TypedSettingsOf } from '../../typed-settings.js';

export const generateSettingsShape = builtOnce(() => ({}) as const);

/** The protocol's settings as a provider's schema outputs them, every default filled in (a provider's settings extend them). */
export type GenerateSettings = TypedSettingsOf<typeof generateSettingsShape>;

/** The protocol's keys alone, for callers that build a body from a settings record with no channel type (tests, the docs' tables). */
export const generateSettings = typedChannelSettings('generate', generateSettingsShape);
