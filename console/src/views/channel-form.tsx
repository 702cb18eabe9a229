/**
 * Creates or changes a channel. The type's settings are one field each, built
 * from the JSON Schema /admin/channel-types publishes (settings-fields.tsx);
 * the base URL and credentials are marked required where the type needs
 * them. Without the types (an older gateway), settings are edited as JSON.
 * The server validates and its 400 shows next to the field `error.param` names.
 */
import { useState } from 'preact/hooks';
import { useSubmit } from '../hooks.js';
import { admin, ApiError } from '../api.js';
import { checkedOf, ErrorNote, Field, fieldError, formError, valueOf } from '../components.js';
import { parseKeys, parseList } from '../format.js';
import type { ChannelType, ChannelView } from '../types.js';
import { draftOf, effectiveDefaults, settingsOf, type SettingsDraft } from './settings-draft.js';
import { SettingsFields } from './settings-fields.js';

const FIELDS = ['name', 'type', 'baseUrl', 'apiKey', 'models', 'modelMapping', 'priority', 'weight', 'enabled', 'settings'];

function parseJsonField(text: string, param: string): Record<string, unknown> {
  try {
    const value = text.trim() === '' ? {} : JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  } catch {
    // Reported below, at the field.
  }
  throw new ApiError('must be a JSON object', 400, 'invalid_request', param);
}

export function ChannelForm({ existing, types, onDone }: { existing?: ChannelView; types: ChannelType[] | undefined; onDone: () => void }) {
  const [name, setName] = useState(existing?.name ?? '');
  const [type, setType] = useState(existing?.type ?? types?.[0]?.type ?? '');
  const [baseUrl, setBaseUrl] = useState(existing?.baseUrl ?? '');
  const [apiKeys, setApiKeys] = useState('');
  const [models, setModels] = useState(existing?.models.join(', ') ?? '');
  const [mapping, setMapping] = useState(JSON.stringify(existing?.modelMapping ?? {}, null, 2));
  const [priority, setPriority] = useState(String(existing?.priority ?? 0));
  const [weight, setWeight] = useState(String(existing?.weight ?? 1));
  const [enabled, setEnabled] = useState(existing?.enabled ?? true);
  const [settings, setSettings] = useState(JSON.stringify(existing?.settings ?? {}, null, 2));
  const [drafts, setDrafts] = useState<Record<string, SettingsDraft>>({});
  const known = types?.find((entry) => entry.type === type);
  const properties = known?.settings?.properties;
  // Settings stored for this type: a draft per type, so switching the type back and forth keeps what was typed.
  const stored = existing?.type === type ? existing.settings : {};
  const draft = properties ? (drafts[type] ?? draftOf(properties, stored)) : undefined;
  const defaults = properties && draft ? effectiveDefaults(properties, known?.impliedDefaults, draft) : undefined;
  const dropped = properties ? Object.keys(stored).filter((key) => !(key in properties)) : [];
  const { submit, busy, error } = useSubmit(async () => {
    const keys = parseKeys(apiKeys);
    const body: Record<string, unknown> = {
      name: name.trim(),
      type,
      baseUrl: baseUrl.trim(),
      // None typed: the server applies the type's default or says the type needs a list.
      models: parseList(models) ?? undefined,
      modelMapping: parseJsonField(mapping, 'modelMapping'),
      priority: Number(priority),
      weight: Number(weight),
      enabled,
      settings: properties && draft && defaults ? settingsOf(properties, draft, stored, defaults) : parseJsonField(settings, 'settings'),
    };
    // On an edit, no key typed keeps the stored credentials.
    if (keys) body.apiKey = keys.length === 1 ? keys[0] : keys;
    if (existing) await admin('PATCH', `channels/${encodeURIComponent(existing.id)}`, body);
    else await admin('POST', 'channels', body);
    onDone();
  });

  // A type may take its address from a setting (openai-chat's preset): chosen, the base URL is optional.
  const baseUrlFrom = known?.needs?.baseUrlFrom;
  const supplied = baseUrlFrom !== undefined && typeof draft?.[baseUrlFrom] === 'string' && draft[baseUrlFrom] !== '';
  const needsBaseUrl = known?.needs?.baseUrl === true && !supplied;
  const baseUrlHint = supplied
    ? `optional: settings.${baseUrlFrom} supplies the address`
    : known && !needsBaseUrl
      ? 'optional: the type has a default address or calls nothing'
      : baseUrlFrom
        ? `or choose settings.${baseUrlFrom} below`
        : undefined;
  const needsKey = known?.needs?.credentials === true && !existing;
  // What the key is for the chosen type (AWS access keys, a service-account JSON…), then how several are given.
  const keyHint = [
    known?.needs?.credentialsHint,
    existing ? `${existing.apiKeyCount} stored; leave empty to keep them` : 'one per line (a JSON key file pasted whole is one); several rotate round-robin',
  ]
    .filter(Boolean)
    .join('. ');
  return (
    <form class="form" onSubmit={submit}>
      <div class="row">
        <Field label="Name" error={fieldError(error, 'name')}>
          <input name="name" required value={name} onInput={(e) => setName(valueOf(e))} />
        </Field>
        <Field label="Type" hint={known ? `serves ${known.serves.join(', ')}` : undefined} error={fieldError(error, 'type')}>
          {types ? (
            <select name="type" value={type} onChange={(e) => setType(valueOf(e))}>
              {types.map((entry) => (
                <option key={entry.type} value={entry.type}>
                  {entry.type}
                </option>
              ))}
            </select>
          ) : (
            <input name="type" required value={type} onInput={(e) => setType(valueOf(e))} />
          )}
        </Field>
      </div>
      <Field label={needsBaseUrl ? 'Base URL (required)' : 'Base URL'} hint={baseUrlHint} error={fieldError(error, 'baseUrl')}>
        <input name="baseUrl" required={needsBaseUrl} value={baseUrl} onInput={(e) => setBaseUrl(valueOf(e))} />
      </Field>
      <Field label={needsKey ? 'Upstream API keys (required)' : 'Upstream API keys'} hint={keyHint} error={fieldError(error, 'apiKey')}>
        <textarea name="apiKey" rows={2} required={needsKey} value={apiKeys} onInput={(e) => setApiKeys(valueOf(e))} />
      </Field>
      <Field label="Models" hint="comma-separated names, * or prefix*" error={fieldError(error, 'models')}>
        <input name="models" value={models} onInput={(e) => setModels(valueOf(e))} />
      </Field>
      <div class="row">
        <Field label="Priority" error={fieldError(error, 'priority')}>
          <input name="priority" type="number" step="1" value={priority} onInput={(e) => setPriority(valueOf(e))} />
        </Field>
        <Field label="Weight" error={fieldError(error, 'weight')}>
          <input name="weight" type="number" min="0" step="1" value={weight} onInput={(e) => setWeight(valueOf(e))} />
        </Field>
        <label class="check">
          <input name="enabled" type="checkbox" checked={enabled} onChange={(e) => setEnabled(checkedOf(e))} /> Enabled
        </label>
      </div>
      <Field label="Model mapping (JSON)" hint="client model name → upstream model name" error={fieldError(error, 'modelMapping')}>
        <textarea name="modelMapping" rows={3} class="mono" value={mapping} onInput={(e) => setMapping(valueOf(e))} />
      </Field>
      {properties && draft && defaults ? (
        <>
          <SettingsFields properties={properties} draft={draft} defaults={defaults} onChange={(next) => setDrafts({ ...drafts, [type]: next })} error={error} />
          {dropped.length > 0 ? (
            <small class="error">
              Not settings of a {type} channel, removed when saved: {dropped.join(', ')}
            </small>
          ) : null}
        </>
      ) : (
        <Field label="Settings (JSON)" error={fieldError(error, 'settings')}>
          <textarea name="settings" rows={4} class="mono" value={settings} onInput={(e) => setSettings(valueOf(e))} />
        </Field>
      )}
      <ErrorNote error={formError(error, FIELDS)} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {existing ? 'Save' : 'Create channel'}
        </button>
      </div>
    </form>
  );
}
