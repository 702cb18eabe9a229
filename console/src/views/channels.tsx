/** Channels: routing order, health (the circuit breaker), create and edit, reset the breaker, test. */
import { useState } from 'preact/hooks';
import { admin, get } from '../api.js';
import { Badge, Dialog, ErrorNote } from '../components.js';
import { formatCount, formatList, formatMs, formatTime } from '../format.js';
import { useLoad } from '../hooks.js';
import { ConfigMark, useConfigOwned } from '../config-owned.js';
import type { ChannelType, ChannelView, SeriesPoint, UsageSeries } from '../types.js';
import { ChannelForm } from './channel-form.js';
import { ChannelTest } from './channel-test.js';

function Health({ channel }: { channel: ChannelView }) {
  const health = channel.health;
  if (!health) return <span class="muted">—</span>;
  const last = health.recentErrors?.at(-1);
  const title = [health.reason, health.openUntil ? `open until ${formatTime(health.openUntil)}` : null, last ? `last error: ${last.message}` : null].filter(Boolean).join('\n');
  return (
    <span title={title || undefined}>
      <Badge text={health.state} />
      {health.consecutiveFailures > 0 ? <small class="muted"> {health.consecutiveFailures} failing</small> : null}
    </span>
  );
}

type Totals = Omit<SeriesPoint, 't'>;

/** A channel's last hour: requests, errors and latency (from the usage sums, one request for every channel). */
function LastHour({ totals }: { totals: Totals | undefined }) {
  if (!totals || totals.requests === 0) return <span class="muted">no traffic</span>;
  return (
    <span title="requests, errors, latency p50 / p95 over the last hour">
      {formatCount(totals.requests)} req{totals.errors > 0 ? <span class="bad"> · {formatCount(totals.errors)} err</span> : null} · {formatMs(totals.p50Ms)} / {formatMs(totals.p95Ms)}
    </span>
  );
}

export function Channels() {
  const channels = useLoad(() => get<{ data: ChannelView[] }>('channels'), []);
  const lastHour = useLoad(
    () =>
      get<UsageSeries>(`usage/series?by=channel&top=50&since=${Date.now() - 3_600_000}`)
        .then((answer) => new Map(answer.series.map((series) => [series.group, series.totals])))
        .catch(() => new Map<string, Totals | undefined>()),
    [channels.data],
  );
  const owned = useConfigOwned('channels');
  // Older gateways lack the type list: the form then takes the type as text.
  const types = useLoad(() => get<{ data: ChannelType[] }>('channel-types').catch(() => undefined), []);
  const [editing, setEditing] = useState<ChannelView | 'new'>();
  const [testing, setTesting] = useState<ChannelView>();
  const [deleting, setDeleting] = useState<string>();
  const [error, setError] = useState<Error>();

  const act = async (method: string, path: string) => {
    setError(undefined);
    try {
      await admin(method, path);
      channels.reload();
    } catch (failure) {
      setError(failure as Error);
    }
  };

  return (
    <section>
      <header class="view-head">
        <h1>Channels</h1>
        <button data-write type="button" onClick={() => setEditing('new')}>
          New channel
        </button>
      </header>
      <ErrorNote error={channels.error ?? error} />
      <table class="grid">
        <thead>
          <tr>
            <th>Name</th>
            <th>Type</th>
            <th>Models</th>
            <th class="num">Priority</th>
            <th class="num">Weight</th>
            <th>Enabled</th>
            <th>Health</th>
            <th>Last hour</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {channels.data?.data.map((channel) => (
            <tr key={channel.id} data-channel-id={channel.id}>
              <td>
                {channel.name} <ConfigMark fields={owned[channel.name]} />
              </td>
              <td>{channel.type}</td>
              <td class="clip">{formatList(channel.models)}</td>
              <td class="num">{channel.priority}</td>
              <td class="num">{channel.weight}</td>
              <td>
                {channel.enabled ? 'yes' : <Badge text="disabled" />}
                {channel.problem ? (
                  <div class="channel-problem" title={channel.problem}>
                    <Badge text="broken" tone="bad" /> <small class="error">{channel.problem}</small>
                  </div>
                ) : null}
                {channel.ignoredSettings?.length ? (
                  <div class="channel-problem" title={channel.ignoredSettings.join('\n')}>
                    <Badge text="ignored settings" tone="warn" /> <small>{channel.ignoredSettings.join('; ')}</small>
                  </div>
                ) : null}
              </td>
              <td>
                <Health channel={channel} />
              </td>
              <td class="last-hour">
                <LastHour totals={lastHour.data?.get(channel.id)} />
              </td>
              <td class="row-actions">
                <button data-write type="button" class="secondary" onClick={() => setTesting(channel)}>
                  Test
                </button>
                <button data-write type="button" class="secondary" onClick={() => setEditing(channel)}>
                  Edit
                </button>
                {channel.health && channel.health.state !== 'closed' ? (
                  <button data-write type="button" class="secondary" onClick={() => act('POST', `channels/${encodeURIComponent(channel.id)}/health/reset`)}>
                    Reset breaker
                  </button>
                ) : null}
                {deleting === channel.id ? (
                  <button data-write type="button" class="danger" onClick={() => act('DELETE', `channels/${encodeURIComponent(channel.id)}`)}>
                    Confirm delete
                  </button>
                ) : (
                  <button data-write type="button" class="plain" onClick={() => setDeleting(channel.id)}>
                    Delete
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {channels.data?.data.length === 0 ? <p class="note">No channels: requests go to the built-in simulator (unless it is turned off).</p> : null}
      {editing ? (
        <Dialog wide title={editing === 'new' ? 'New channel' : `Edit ${editing.name}`} onClose={() => setEditing(undefined)}>
          <ChannelForm
            existing={editing === 'new' ? undefined : editing}
            types={types.data?.data}
            onDone={() => {
              setEditing(undefined);
              channels.reload();
            }}
          />
        </Dialog>
      ) : null}
      {testing ? <ChannelTest channel={testing} onClose={() => setTesting(undefined)} /> : null}
    </section>
  );
}
