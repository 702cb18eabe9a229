/** The form that creates a key or changes its limits; the server validates, its complaint shows at the field it names. */
import { useState } from 'preact/hooks';
import { useSubmit } from '../hooks.js';
import { admin } from '../api.js';
import { checkedOf, ErrorNote, Field, fieldError, formError, valueOf } from '../components.js';
import { formatList, fromLocalInput, parseList, parseNumber, toLocalInput } from '../format.js';
import type { KeyView } from '../types.js';
import { OwnerFields } from './key-owner.js';

const FIELDS = ['name', 'quota', 'rpm', 'tpm', 'models', 'allowIps', 'expiresAt', 'strictTranslation', 'teamId', 'userId'];

/** `existing` absent: create (answers the record with its secret); present: PATCH. */
export function KeyForm({ existing, onDone }: { existing?: KeyView; onDone: (saved: KeyView & { key?: string }) => void }) {
  const [name, setName] = useState(existing?.name ?? '');
  const [quota, setQuota] = useState(existing?.quota?.toString() ?? '');
  const [rpm, setRpm] = useState(existing?.rpm?.toString() ?? '');
  const [tpm, setTpm] = useState(existing?.tpm?.toString() ?? '');
  const [models, setModels] = useState(existing?.models ? formatList(existing.models) : '');
  const [allowIps, setAllowIps] = useState(existing?.allowIps ? formatList(existing.allowIps) : '');
  const [expiresAt, setExpiresAt] = useState(toLocalInput(existing?.expiresAt));
  const [strict, setStrict] = useState(existing?.strictTranslation ?? false);
  const [owner, setOwner] = useState({ teamId: existing?.teamId ?? '', userId: existing?.userId ?? '' });
  // A saved key whose quota cannot hold for some models: shown before the form closes.
  const [warned, setWarned] = useState<KeyView & { key?: string }>();
  const { submit, busy, error } = useSubmit(async () => {
    const body = {
      name: name.trim(),
      quota: parseNumber(quota),
      rpm: parseNumber(rpm),
      tpm: parseNumber(tpm),
      models: parseList(models),
      allowIps: parseList(allowIps),
      expiresAt: fromLocalInput(expiresAt),
      strictTranslation: strict,
      teamId: owner.teamId || null,
      userId: owner.userId || null,
    };
    const saved = existing ? await admin<KeyView>('PATCH', `keys/${encodeURIComponent(existing.id)}`, body) : await admin<KeyView & { key: string }>('POST', 'keys', body);
    if (saved.warnings && saved.warnings.length > 0) setWarned(saved);
    else onDone(saved);
  });

  if (warned) {
    return (
      <div class="form">
        <div class="warning" data-testid="key-warnings">
          Saved. This key has a quota, but some models it may use have no price: their requests would cost nothing against it.
          <ul>
            {warned.warnings!.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </div>
        <div class="actions">
          <button type="button" onClick={() => onDone(warned)}>
            Continue
          </button>
        </div>
      </div>
    );
  }

  return (
    <form class="form" onSubmit={submit}>
      <Field label="Name" error={fieldError(error, 'name')}>
        <input name="name" required value={name} onInput={(e) => setName(valueOf(e))} />
      </Field>
      <div class="row">
        <Field label="Quota (USD)" hint="empty: unlimited" error={fieldError(error, 'quota')}>
          <input name="quota" type="number" min="0" step="any" value={quota} onInput={(e) => setQuota(valueOf(e))} />
        </Field>
        <Field label="Requests / minute" hint="empty: no limit" error={fieldError(error, 'rpm')}>
          <input name="rpm" type="number" min="1" step="1" value={rpm} onInput={(e) => setRpm(valueOf(e))} />
        </Field>
        <Field label="Tokens / minute" hint="empty: no limit" error={fieldError(error, 'tpm')}>
          <input name="tpm" type="number" min="1" step="1" value={tpm} onInput={(e) => setTpm(valueOf(e))} />
        </Field>
      </div>
      <Field label="Models" hint="comma-separated names, * or prefix*; empty: all" error={fieldError(error, 'models')}>
        <input name="models" value={models} onInput={(e) => setModels(valueOf(e))} />
      </Field>
      <Field label="Allowed client addresses" hint="comma-separated addresses or CIDR ranges; empty: any" error={fieldError(error, 'allowIps')}>
        <input name="allowIps" value={allowIps} onInput={(e) => setAllowIps(valueOf(e))} />
      </Field>
      <Field label="Expires" hint="empty: never" error={fieldError(error, 'expiresAt')}>
        <input name="expiresAt" type="datetime-local" value={expiresAt} onInput={(e) => setExpiresAt(valueOf(e))} />
      </Field>
      <OwnerFields owner={owner} onChange={setOwner} error={error} />
      <label class="check">
        <input name="strictTranslation" type="checkbox" checked={strict} onChange={(e) => setStrict(checkedOf(e))} />
        Strict translation: refuse what an upstream would ignore
      </label>
      <ErrorNote error={formError(error, FIELDS)} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {existing ? 'Save' : 'Create key'}
        </button>
      </div>
    </form>
  );
}
