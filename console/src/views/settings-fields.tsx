/**
 * A channel's settings as one field per key of its type's JSON Schema (from
 * /admin/channel-types): booleans as checkboxes, numbers as number inputs,
 * string choices as selects, strings as text, and lists or objects as a small
 * JSON box for that key. Each field shows the key's description as its hint
 * and its default as placeholder (the one the channel will get, settings-draft.ts;
 * one another key implies is marked as that key's); a field left empty leaves
 * the key unset.
 */
import { checkedOf, Field, fieldError, valueOf } from '../components.js';
import type { SettingSchema } from '../types.js';
import { type EffectiveDefaults, kindOf, type SettingsDraft } from './settings-draft.js';

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
