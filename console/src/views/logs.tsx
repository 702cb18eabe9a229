/**
 * Request logs, newest first, one server page of 100 at a time (the table
 * never holds more, however many rows the gateway has), with filters; a row
 * opens its detail (`#/logs/<id>`). A row a simulator answered (the built-in
 * one or a channel of type `simulator`) is marked, so made-up answers are
 * never mistaken for a provider's.
 */
import { useMemo, useState } from 'preact/hooks';
import { type Permission, useCan } from '../access.js';
import { get, query } from '../api.js';
import { Badge, ErrorNote, valueOf } from '../components.js';
import { formatCount, formatMoney, formatMs, formatTime } from '../format.js';
import { navigate, useLoad } from '../hooks.js';
import type { ChannelView, KeyView, LogPage, TeamView, UserView } from '../types.js';
import { LogDetailView, rememberRows, servedBySimulator } from './log-detail.js';

const PAGE = 100;
const RANGES: Record<string, number | null> = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000, all: null };
const FAMILIES = [
  'messages',
  'generate',
  'responses',
  'chat-completions',
  'completions',
  'embeddings',
  'rerank',
  'moderations',
  'image-generations',
  'audio-speech',
  'audio-transcriptions',
  'audio-translations',
  'images',
  'videos',
];
const STATUSES = ['2xx', '4xx', '5xx', 'error', '429'];

interface Filters {
  range: string;
  keyId: string;
  teamId: string;
  userId: string;
  model: string;
  channelId: string;
  family: string;
  status: string;
  /** When the filters were applied: the range ends here, so paging does not drift. */
  until: number;
}

/** Where a page starts: the server's cursor, or (gateways without cursors) the time of the last row seen. */
type Cursor = { cursor?: string; before?: number } | undefined;

export function statusTone(status: number): string {
  return status >= 500 ? 'bad' : status >= 400 ? 'warn' : 'good';
}

interface TableProps {
  filters: Filters;
  cursors: Cursor[];
  setCursors: (cursors: Cursor[]) => void;
  keys: Map<string, string>;
  channels: Map<string, string>;
  simulatorIds: ReadonlySet<string>;
}

function LogTable({ filters, cursors, setCursors, keys, channels, simulatorIds }: TableProps) {
  const until = filters.until;
  const cursor = cursors[cursors.length - 1];
  const span = RANGES[filters.range];
  const page = useLoad(async () => {
    const answer = await get<LogPage>(
      `logs${query({
        since: span === null || span === undefined ? undefined : until - span,
        until,
        keyId: filters.keyId,
        teamId: filters.teamId,
        userId: filters.userId,
        model: filters.model.trim(),
        channelId: filters.channelId,
        family: filters.family,
        status: filters.status,
        limit: PAGE,
        cursor: cursor?.cursor,
        before: cursor?.before,
      })}`,
    );
    rememberRows(answer.data);
    return answer;
  }, [filters, cursor]);
  const rows = page.data?.data ?? [];
  const next: Cursor = page.data?.nextCursor
    ? { cursor: page.data.nextCursor }
    : page.data && !('nextCursor' in page.data) && rows.length > 0
      ? { before: rows[rows.length - 1]!.createdAt }
      : undefined;

  return (
    <>
      <ErrorNote error={page.error} />
      <table class="grid clickable" aria-busy={page.loading}>
        <thead>
          <tr>
            <th>Time</th>
            <th>Status</th>
            <th>Family</th>
            <th>Model</th>
            <th>Channel</th>
            <th>Key</th>
            <th class="num">Tokens in / out</th>
            <th class="num">Cost</th>
            <th class="num">Latency</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-log-id={row.id} tabIndex={0} onClick={() => navigate('logs', row.id)} onKeyDown={(e) => e.key === 'Enter' && navigate('logs', row.id)}>
              <td>{formatTime(row.createdAt)}</td>
              <td>
                <Badge text={String(row.httpStatus)} tone={statusTone(row.httpStatus)} />
              </td>
              <td>{row.family}</td>
              <td>{row.model}</td>
              <td>
                {(row.channelId && channels.get(row.channelId)) ?? row.triedChannels.at(-1) ?? '—'} {servedBySimulator(row.channelId, simulatorIds) ? <Badge text="simulated" tone="info" /> : null}
              </td>
              <td>{(row.keyId && keys.get(row.keyId)) ?? '—'}</td>
              <td class="num">
                {formatCount(row.inputTokens)} / {formatCount(row.outputTokens)}
              </td>
              <td class="num">{formatMoney(row.cost)}</td>
              <td class="num">{formatMs(row.latencyMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {page.data && rows.length === 0 ? <p class="note">No requests match.</p> : null}
      <div class="pager">
        <button type="button" class="secondary" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          ← Newer
        </button>
        <span class="muted">page {cursors.length}</span>
        <button type="button" class="secondary" disabled={!page.data?.hasMore || !next} onClick={() => setCursors([...cursors, next])}>
          Older →
        </button>
      </div>
    </>
  );
}

function Select({ label, value, options, onChange }: { label: string; value: string; options: Array<[string, string]>; onChange: (value: string) => void }) {
  return (
    <label class="field compact">
      <span>{label}</span>
      <select name={label.toLowerCase()} value={value} onChange={(e) => onChange(valueOf(e))}>
        <option value="">any</option>
        {options.map(([id, name]) => (
          <option key={id} value={id}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}

export function Logs({ params }: { params: string[] }) {
  const [filters, setFilters] = useState<Filters>({ range: '24h', keyId: '', teamId: '', userId: '', model: '', channelId: '', family: '', status: '', until: Date.now() });
  // Kept here, not in the table: coming back from a row's detail returns to the same page.
  const [cursors, setCursors] = useState<Cursor[]>([undefined]);
  const [model, setModel] = useState('');
  // A caller who may not read keys, channels, teams or users (a viewer) sees ids: those names are not asked for.
  const can = useCan();
  const listOf = <T,>(path: string, permission: Permission) => (can(permission) ? get<{ data: T[] }>(path).catch(() => ({ data: [] as T[] })) : Promise.resolve({ data: [] as T[] }));
  const keys = useLoad(() => listOf<KeyView>('keys', 'keys.read'), []);
  const channels = useLoad(() => listOf<ChannelView>('channels', 'channels.read'), []);
  const teams = useLoad(() => listOf<TeamView>('teams', 'teams.read'), []);
  const users = useLoad(() => listOf<UserView>('users', 'users.read'), []);
  const teamNames = useMemo(() => (teams.data?.data ?? []).map((team): [string, string] => [team.id, team.name]), [teams.data]);
  const userEmails = useMemo(() => (users.data?.data ?? []).map((user): [string, string] => [user.id, user.email]), [users.data]);
  const keyNames = useMemo(() => new Map((keys.data?.data ?? []).map((key) => [key.id, key.name])), [keys.data]);
  const channelNames = useMemo(() => new Map((channels.data?.data ?? []).map((channel) => [channel.id, channel.name])), [channels.data]);
  const simulatorIds = useMemo(() => new Set((channels.data?.data ?? []).filter((channel) => channel.type === 'simulator').map((channel) => channel.id)), [channels.data]);
  const set = (change: Partial<Filters>) => {
    setFilters({ ...filters, ...change, until: Date.now() });
    setCursors([undefined]);
  };

  if (params[0]) return <LogDetailView id={params[0]} simulatorIds={simulatorIds} />;
  return (
    <section>
      <header class="view-head">
        <h1>Request logs</h1>
      </header>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          set({ model });
        }}
      >
        <label class="field compact">
          <span>Range</span>
          <select name="range" value={filters.range} onChange={(e) => set({ range: valueOf(e) })}>
            {Object.keys(RANGES).map((range) => (
              <option key={range} value={range}>
                {range === 'all' ? 'all time' : `last ${range}`}
              </option>
            ))}
          </select>
        </label>
        <Select label="Key" value={filters.keyId} options={[...keyNames]} onChange={(keyId) => set({ keyId })} />
        <Select label="Team" value={filters.teamId} options={teamNames} onChange={(teamId) => set({ teamId })} />
        <Select label="User" value={filters.userId} options={userEmails} onChange={(userId) => set({ userId })} />
        <Select label="Channel" value={filters.channelId} options={[...channelNames]} onChange={(channelId) => set({ channelId })} />
        <Select label="Family" value={filters.family} options={FAMILIES.map((family) => [family, family])} onChange={(family) => set({ family })} />
        <Select label="Status" value={filters.status} options={STATUSES.map((status) => [status, status === 'error' ? 'any error' : status])} onChange={(status) => set({ status })} />
        <label class="field compact">
          <span>Model</span>
          <input name="model" value={model} placeholder="exact name" onInput={(e) => setModel(valueOf(e))} onBlur={() => model !== filters.model && set({ model })} />
        </label>
        <button type="submit" class="secondary">
          Apply
        </button>
      </form>
      <LogTable filters={filters} cursors={cursors} setCursors={setCursors} keys={keyNames} channels={channelNames} simulatorIds={simulatorIds} />
    </section>
  );
}
