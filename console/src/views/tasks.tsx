/**
 * Image and video tasks: a gallery with status, progress and the task's
 * buttons, filtered by status and paged by the server's cursor; a task's
 * detail (`#/tasks/<id>`) plays its media and lists its history and callback
 * deliveries. Media needs the admin key, so it is fetched and shown by blob: URL.
 */
import { useState } from 'preact/hooks';
import { get, query } from '../api.js';
import { Badge, ErrorNote, valueOf } from '../components.js';
import { formatMoney, formatTime } from '../format.js';
import { useBlobUrl, useLoad } from '../hooks.js';
import type { TaskPage, TaskView } from '../types.js';
import { TaskDetailView } from './task-detail.js';

const PAGE = 24;
/** The task engine's states, the same for both families (a video's client sees them as processing, succeeded, failed). */
const STATUSES = ['NOT_START', 'SUBMITTED', 'MODAL', 'IN_PROGRESS', 'SUCCESS', 'FAILURE', 'CANCEL'];

export function progressShare(progress: TaskView['progress']): number | undefined {
  if (progress === null || progress === undefined) return undefined;
  const value = typeof progress === 'number' ? progress : Number.parseFloat(progress);
  return Number.isFinite(value) ? Math.max(0, Math.min(100, value)) / 100 : undefined;
}

/** The task's first picture (a video's thumbnail or sprite sheet, where it has one). */
function Thumbnail({ task }: { task: TaskView }) {
  const picture = task.media.find((media) => (media.contentType ?? '').startsWith('image/'));
  const blob = useBlobUrl(picture?.url);
  if (!picture) {
    const other = task.media[0];
    return <div class="thumb empty">{other ? `▶ ${other.contentType ?? 'media'}` : task.status === 'FAILURE' ? 'failed' : 'no media yet'}</div>;
  }
  return <div class="thumb">{blob.url ? <img src={blob.url} alt={task.prompt ?? task.id} /> : blob.error ? <small class="error">{blob.error.message}</small> : null}</div>;
}

function TaskCard({ task }: { task: TaskView }) {
  const share = progressShare(task.progress);
  return (
    <a class="card" href={`#/tasks/${encodeURIComponent(task.id)}`} data-task-id={task.id}>
      <Thumbnail task={task} />
      <div class="card-body">
        <div class="card-head">
          <Badge text={task.status} />
          <small class="muted">{task.action}</small>
        </div>
        {share !== undefined && share < 1 ? <progress max={1} value={share} /> : null}
        <p class="clip" title={task.prompt ?? undefined}>
          {task.prompt ?? <span class="muted">no prompt</span>}
        </p>
        {task.buttons.length > 0 ? (
          <div class="chips">
            {task.buttons.map((button) => (
              <span key={button.customId} class="chip">
                {button.label}
              </span>
            ))}
          </div>
        ) : null}
        <small class="muted">
          {formatTime(task.submitTime)} · {formatMoney(task.cost)}
        </small>
      </div>
    </a>
  );
}

type Cursor = string | undefined;

export function Tasks({ params }: { params: string[] }) {
  const [family, setFamily] = useState<TaskView['family']>('images');
  const [status, setStatus] = useState('');
  const [cursors, setCursors] = useState<Cursor[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const detail = params[0];
  // No list behind an open task: it loads again, current, on the way back.
  const page = useLoad(() => (detail ? Promise.resolve(undefined) : get<TaskPage>(`tasks${query({ family, status, limit: PAGE, cursor })}`)), [family, status, cursor, detail]);

  if (detail) return <TaskDetailView id={detail} />;
  const choose = (nextFamily: TaskView['family'], nextStatus: string) => {
    setFamily(nextFamily);
    setStatus(nextStatus);
    setCursors([undefined]);
  };
  return (
    <section>
      <header class="view-head">
        <h1>Tasks</h1>
        <div class="filters">
          <div class="tabs" role="tablist">
            {(['images', 'videos'] as const).map((entry) => (
              <button key={entry} type="button" role="tab" aria-selected={family === entry} class={family === entry ? 'tab active' : 'tab'} onClick={() => choose(entry, '')}>
                {entry}
              </button>
            ))}
          </div>
          <label class="field compact">
            <span>Status</span>
            <select name="status" value={status} onChange={(e) => choose(family, valueOf(e))}>
              <option value="">any</option>
              {STATUSES.map((entry) => (
                <option key={entry} value={entry}>
                  {entry.replace(/_/g, ' ')}
                </option>
              ))}
            </select>
          </label>
          <button type="button" class="secondary" onClick={page.reload}>
            Refresh
          </button>
        </div>
      </header>
      <ErrorNote error={page.error} />
      <div class="gallery">
        {page.data?.data.map((task) => (
          <TaskCard key={task.id} task={task} />
        ))}
      </div>
      {page.data && page.data.data.length === 0 ? <p class="note">No tasks.</p> : null}
      <div class="pager">
        <button type="button" class="secondary" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          ← Newer
        </button>
        <span class="muted">page {cursors.length}</span>
        <button type="button" class="secondary" disabled={!page.data?.nextCursor} onClick={() => setCursors([...cursors, page.data!.nextCursor!])}>
          Older →
        </button>
      </div>
    </section>
  );
}
