/** The gateway's effective settings (`GET /admin/settings`), read-only; values the config file owns are marked. */
import { get } from '../api.js';
import { Badge, ErrorNote } from '../components.js';
import { useLoad } from '../hooks.js';

interface SettingRow {
  name: string;
  value: unknown;
  source: string;
}

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

export function Settings() {
  const settings = useLoad(() => get<{ data: SettingRow[] }>('settings'), []);
  return (
    <section>
      <header class="view-head">
        <h1>Settings</h1>
      </header>
      <p class="muted">Set by environment variables and the config file; change them there. Values owned by the config file are marked.</p>
      <ErrorNote error={settings.error} />
      {settings.data ? (
        <table class="grid">
          <thead>
            <tr>
              <th>Setting</th>
              <th>Value</th>
              <th>Source</th>
            </tr>
          </thead>
          <tbody>
            {settings.data.data.map((row) => (
              <tr key={row.name}>
                <td>
                  <code>{row.name}</code>
                </td>
                <td class="clip">
                  <code>{show(row.value)}</code>
                </td>
                <td>
                  <Badge text={row.source} tone={row.source === 'config' ? 'info' : ''} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
