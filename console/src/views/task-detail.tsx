/** One task: its media (images shown, videos played), buttons, history and callback deliveries. */
import { useCan } from '../access.js';
import { get } from '../api.js';
import { Badge, ErrorNote } from '../components.js';
import { formatMoney, formatTime } from '../format.js';
import { useBlobUrl, useLoad } from '../hooks.js';
import type { ChannelView, KeyView, TaskDetail } from '../types.js';

export function MediaView({ url, contentType, label }: { url: string; contentType: string | null; label: string }) {
  const blob = useBlobUrl(url);
  if (blob.error) return <p class="error">{blob.error.message}</p>;
  if (!blob.url) return <div class="media loading">loading…</div>;
  const type = contentType ?? blob.type ?? '';
  // biome-ignore lint/a11y/useMediaCaption: generated videos come with no caption track
  if (type.startsWith('video/')) return <video class="media" src={blob.url} controls preload="metadata" aria-label={label} />;
  if (type.startsWith('image/')) return <img class="media" src={blob.url} alt={label} />;
  return (
    <a href={blob.url} download>
      {label} ({type || 'file'})
    </a>
  );
}

export function TaskDetailView({ id }: { id: string }) {
  const task = useLoad(() => get<TaskDetail>(`tasks/${encodeURIComponent(id)}`), [id]);
  // Names beside ids only for a caller who may read them (a viewer sees the ids).
  const can = useCan();
  const keys = useLoad(() => (can('keys.read') ? get<{ data: KeyView[] }>('keys') : Promise.resolve({ data: [] as KeyView[] })), []);
  const channels = useLoad(() => (can('channels.read') ? get<{ data: ChannelView[] }>('channels') : Promise.resolve({ data: [] as ChannelView[] })), []);
  const data = task.data;
  const keyName = keys.data?.data.find((key) => key.id === data?.keyId)?.name ?? data?.keyId ?? '—';
  const channelName = channels.data?.data.find((channel) => channel.id === data?.channelId)?.name ?? data?.channelId ?? '—';
  return (
    <section>
      <header class="view-head">
        <h1>Task {id}</h1>
        <a href="#/tasks">← Back to the tasks</a>
      </header>
      <ErrorNote error={task.error} />
      {data ? (
        <div class="detail" data-testid="task-detail">
          <div class="media-row">
            {data.media.map((media, index) => (
              <figure key={media.url}>
                <MediaView url={media.url} contentType={media.contentType} label={`${data.action} result ${index + 1}`} />
                <figcaption class="muted">{[media.role, media.contentType, media.width && media.height ? `${media.width}×${media.height}` : null].filter(Boolean).join(' · ')}</figcaption>
              </figure>
            ))}
          </div>
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              <Badge text={data.status} /> {data.progress !== null ? <span class="muted">{String(data.progress)}</span> : null}
              {data.failReason ? <span class="error"> {data.failReason}</span> : null}
            </dd>
            <dt>Family / action</dt>
            <dd>
              {data.family} / {data.action}
            </dd>
            <dt>Prompt</dt>
            <dd>{data.prompt ?? '—'}</dd>
            <dt>Key / channel</dt>
            <dd>
              {keyName} / {channelName}
            </dd>
            <dt>Cost</dt>
            <dd>{formatMoney(data.cost)}</dd>
            <dt>Submitted / started / finished</dt>
            <dd>
              {formatTime(data.submitTime)} / {formatTime(data.startTime)} / {formatTime(data.finishTime)}
            </dd>
            <dt>Polls</dt>
            <dd>{data.pollCount}</dd>
            {data.buttons.length > 0 ? (
              <>
                <dt>Buttons</dt>
                <dd class="chips">
                  {data.buttons.map((button) => (
                    <span key={button.customId} class="chip" title={button.customId}>
                      {button.label}
                    </span>
                  ))}
                </dd>
              </>
            ) : null}
          </dl>
          <h2>History</h2>
          <table class="grid">
            <thead>
              <tr>
                <th>Time</th>
                <th>Event</th>
                <th>Detail</th>
              </tr>
            </thead>
            <tbody>
              {data.history.map((entry, index) => (
                <tr key={index}>
                  <td>{formatTime(entry.at)}</td>
                  <td>{entry.event}</td>
                  <td>{entry.detail ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h2>Callback deliveries</h2>
          {data.deliveries.length === 0 ? (
            <p class="note">No callback URL was given.</p>
          ) : (
            <table class="grid">
              <thead>
                <tr>
                  <th>Event</th>
                  <th>URL</th>
                  <th>Status</th>
                  <th class="num">Attempts</th>
                  <th>Last answer</th>
                  <th>Delivered</th>
                </tr>
              </thead>
              <tbody>
                {data.deliveries.map((delivery) => (
                  <tr key={delivery.id}>
                    <td>{delivery.event}</td>
                    <td class="clip">{delivery.url}</td>
                    <td>
                      <Badge text={delivery.status} />
                    </td>
                    <td class="num">{delivery.attempts}</td>
                    <td>{[delivery.lastStatus, delivery.lastError].filter((part) => part !== null && part !== undefined).join(' ') || '—'}</td>
                    <td>{formatTime(delivery.deliveredAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      ) : null}
    </section>
  );
}
