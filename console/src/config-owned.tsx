/** Which keys, channels and prices the config file owns (from `GET /admin/settings`), to mark them where they are listed. */
import { get } from './api.js';
import { useLoad } from './hooks.js';
import type { SettingsAnswer } from './types.js';

type Owned = SettingsAnswer['configOwned'];

export function useConfigOwned(kind: keyof Owned): Record<string, string[]> {
  // Gateways without the settings endpoint mark nothing.
  const owned = useLoad(() => get<Partial<SettingsAnswer>>('settings').catch(() => undefined), []);
  return owned.data?.configOwned?.[kind] ?? {};
}

/** A badge naming the fields the config file sets (an admin change to them is undone when the file changes). */
export function ConfigMark({ fields }: { fields: string[] | undefined }) {
  if (!fields) return null;
  return (
    <span class="badge info" title={`set by the config file: ${fields.join(', ')}`}>
      config
    </span>
  );
}
