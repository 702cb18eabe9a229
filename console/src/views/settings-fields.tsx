/**
 * A channel's settings as one field per key of its type's JSON Schema (from
 * /admin/channel-types): booleans as checkboxes, numbers as number inputs,
 * string choices as selects, strings as text, and lists or objects as a small
 * JSON box for that key. Each field shows the key's description as its hint
 * and its default as placeholder; a field left empty leaves the key unset.
 * The default shown is the one the channel will get: where another key
 * implies defaults (openai-chat's `preset`, published by the type as
 * `impliedDefaults`), those, marked as that key's.
 */
import { ApiError } from '../api.js';
import { checkedOf, Field, fieldError, valueOf } from '../components.js';
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

type Kind = 'boolean' | 'number' | 'choice' | 'text' | 'json';

function kindOf(schema: SettingSchema): Kind {
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

export function SettingsFields({
  properties,
  draft,
  defaults,
  onChange,
  error,
}: {
  properties: Record<string, SettingSchema>;
  draft: SettingsDraft;
  defaults: EffectiveDefaults;
  onChange: (draft: SettingsDraft) => void;
  error: Error | undefined;
}) {
  const set = (key: string, value: string | boolean) => onChange({ ...draft, [key]: value });
  return (
    <fieldset class="settings-fields">
      <legend>Settings</legend>
      {Object.entries(properties).map(([key, schema]) => {
        const name = `settings.${key}`;
        const fallback = defaults.values[key];
        const placeholder = fallback === undefined ? undefined : typeof fallback === 'string' ? fallback : JSON.stringify(fallback);
        const kind = kindOf(schema);
        // Said next to the field, so a value the form shows is never mistaken for the schema's own default.
        const impliedNote = key in defaults.implied ? `${defaults.by} sets the default: ${placeholder}. ` : '';
        if (kind === 'boolean')
          return (
            <label class="check" key={key} title={schema.description}>
              <input name={name} type="checkbox" checked={(draft[key] ?? fallback) === true} onChange={(e) => set(key, checkedOf(e))} /> <code>{key}</code>
              {fieldError(error, name) ? <small class="error"> {fieldError(error, name)}</small> : <small> {impliedNote + (schema.description ?? '')}</small>}
            </label>
          );
        return (
          <Field key={key} label={key} hint={impliedNote + (schema.description ?? '')} error={fieldError(error, name)}>
            {kind === 'choice' ? (
              <select name={name} value={String(draft[key] ?? '')} onChange={(e) => set(key, valueOf(e))}>
                <option value="">{placeholder ? `(default: ${placeholder})` : '(unset)'}</option>
                {(schema.enum ?? []).map((choice) => (
                  <option key={String(choice)} value={String(choice)}>
                    {String(choice)}
                  </option>
                ))}
              </select>
            ) : kind === 'json' ? (
              <textarea name={name} rows={2} class="mono" placeholder={placeholder} value={String(draft[key] ?? '')} onInput={(e) => set(key, valueOf(e))} />
            ) : kind === 'number' ? (
              <input name={name} type="number" step="any" placeholder={placeholder} value={String(draft[key] ?? '')} onInput={(e) => set(key, valueOf(e))} />
            ) : (
              <input name={name} placeholder={placeholder} value={String(draft[key] ?? '')} onInput={(e) => set(key, valueOf(e))} />
            )}
          </Field>
        );
      })}
    </fieldset>
  );
}
