/**
 * The gateway's settings (`GET /admin/settings`), read-only: each variable's
 * value in effect and where it came from, and which keys' and channels'
 * fields and which prices the config file owns (an admin change to those is
 * overwritten when the file changes).
 */
import { get } from '../api.js';
import { Badge, ErrorNote } from '../components.js';
import { useLoad } from '../hooks.js';
import type { SettingsAnswer } from '../types.js';

const show = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

function Owned({ what, owned }: { what: string; owned: Record<string, string[]> }) {
  const entries = Object.entries(owned);
  if (entries.length === 0) return null;
  return (
    <>
      <h2>{what} the config file owns</h2>
      <table class="grid">
        <tbody>
          {entries.map(([name, fields]) => (
            <tr key={name}>
              <td>{name}</td>
              <td class="muted">{fields.join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function Settings() {
  const settings = useLoad(() => get<SettingsAnswer>('settings'), []);
  const data = settings.data;
  const sections = [...new Set((data?.data ?? []).map((row) => row.section ?? ''))];
  return (
    <section>
      <header class="view-head">
        <h1>Settings</h1>
      </header>
      <p class="muted">
        Set by environment variables
        {data?.configFile ? (
          <>
            {' '}
            and the config file <code>{data.configFile}</code>
          </>
        ) : null}
        ; change them there and restart.
      </p>
      <ErrorNote error={settings.error} />
      {sections.map((section) => (
        <div key={section}>
          {section ? <h2>{section}</h2> : null}
          <table class="grid fixed">
            <thead>
              <tr>
                <th class="wide">Setting</th>
                <th>Value</th>
                <th>Source</th>
              </tr>
            </thead>
            <tbody>
              {data!.data
                .filter((row) => (row.section ?? '') === section)
                .map((row) => (
                  <tr key={row.name} title={row.description}>
                    <td>
                      <code>{row.name}</code>
                    </td>
                    <td class="clip">
                      <code>{show(row.value)}</code>
                    </td>
                    <td>
                      <Badge text={row.source} tone={row.source === 'default' ? '' : 'info'} />
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      ))}
      {data?.configOwned ? (
        <>
          <Owned what="Keys" owned={data.configOwned.keys} />
          <Owned what="Channels" owned={data.configOwned.channels} />
          <Owned what="Prices" owned={data.configOwned.prices ?? {}} />
        </>
      ) : null}
    </section>
  );
}
