/**
 * A channel's settings while the form edits them (a draft, one entry per key
 * of the type's JSON Schema), the settings a draft sends, and the defaults a
 * channel with that draft gets: the schema's, or where another key implies
 * them (openai-chat's `preset`, published by the type as `impliedDefaults`),
 * those. No markup here, so it is tested without a browser.
 */
import { ApiError } from '../api-error.js';
import type { ChannelType, SettingSchema } from '../types.js';

/** What a field holds while edited: the text typed (JSON for lists and objects), or a checkbox state (absent: untouched, the default holds). */
export type SettingsDraft = Record<string, string | boolean>;

/** The defaults a channel with this draft gets: the schema's, or where another key implies them, those (`by` names it, e.g. `preset deepseek`). */
export interface EffectiveDefaults {
  values: Record<string, unknown>;
  implied: Record<string, unknown>;
  by?: string;
}

export function effectiveDefaults(properties: Record<string, SettingSchema>, implied: ChannelType['impliedDefaults'], draft: SettingsDraft): EffectiveDefaults {
  const values: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(properties)) values[key] = schema.default;
  const chosen = implied ? draft[implied.key] : undefined;
  const byValue = implied && typeof chosen === 'string' && Object.hasOwn(implied.byValue, chosen) ? implied.byValue[chosen] : undefined;
  if (!implied || !byValue) return { values, implied: {} };
  for (const [key, value] of Object.entries(byValue)) values[key] = value;
  return { values, implied: byValue, by: `${implied.key} ${String(chosen)}` };
}

export type Kind = 'boolean' | 'number' | 'choice' | 'text' | 'json';

export function kindOf(schema: SettingSchema): Kind {
  if (schema.type === 'boolean') return 'boolean';
  if (schema.type === 'number' || schema.type === 'integer') return 'number';
  if (schema.type === 'string') return Array.isArray(schema.enum) ? 'choice' : 'text';
  return 'json';
}

/** The draft of stored settings, for the keys the schema names. */
export function draftOf(properties: Record<string, SettingSchema>, settings: Record<string, unknown>): SettingsDraft {
  const draft: SettingsDraft = {};
  for (const [key, schema] of Object.entries(properties)) {
    const value = settings[key];
    const kind = kindOf(schema);
    if (kind === 'boolean') {
      if (typeof value === 'boolean') draft[key] = value;
    } else if (value === undefined || value === null) draft[key] = '';
    else draft[key] = kind === 'json' ? JSON.stringify(value, null, 2) : String(value);
  }
  return draft;
}

/** The settings to send: typed values for the fields filled in; a checkbox only when it differs from its effective default or was stored. */
export function settingsOf(properties: Record<string, SettingSchema>, draft: SettingsDraft, stored: Record<string, unknown>, defaults: EffectiveDefaults): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(properties)) {
    const value = draft[key];
    const kind = kindOf(schema);
    if (kind === 'boolean') {
      if (typeof value === 'boolean' && (value !== (defaults.values[key] === true) || key in stored)) settings[key] = value;
      continue;
    }
    const text = typeof value === 'string' ? value.trim() : '';
    if (text === '') continue;
    if (kind === 'number') settings[key] = Number(text);
    else if (kind === 'json') settings[key] = parseSetting(text, key);
    else settings[key] = text;
  }
  return settings;
}

function parseSetting(text: string, key: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('must be JSON (a list or an object)', 400, 'invalid_request', `settings.${key}`);
  }
}
