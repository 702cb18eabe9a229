/**
 * One request: what it asked, which channels were tried and why each failed,
 * what translation mapped or dropped, tokens, cost and timings. Gateways
 * without `GET /admin/logs/:id` still show the row from the table, and say
 * what is missing.
 */
import { get } from '../api.js';
import { Badge, ErrorNote, isMissing, Unavailable } from '../components.js';
import { formatCount, formatMoney, formatMs, formatTime } from '../format.js';
import { useLoad } from '../hooks.js';
import type { LogDetail, LogRow } from '../types.js';

/** Rows the table has shown, by id: the detail of a row seen needs no second list query. */
const seen = new Map<string, LogRow>();
export function rememberRows(rows: LogRow[]): void {
  for (const row of rows) seen.set(row.id, row);
  // Bounded: a long session of paging keeps at most a few pages.
  while (seen.size > 1000) seen.delete(seen.keys().next().value!);
}

const tone = (status: number | null) => (status === null ? 'warn' : status >= 500 ? 'bad' : status >= 400 ? 'warn' : 'good');

/** `mapped=system messages; ignored=top_k` → [['mapped', 'system messages'], ['ignored', 'top_k']]. */
export function translationParts(translation: string): Array<[string, string]> {
  return translation
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const at = part.indexOf('=');
      return at < 0 ? ['', part] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    });
}

function Attempts({ attempts }: { attempts: LogDetail['attempts'] }) {
  if (attempts.length === 0) return <p class="note">No upstream was called.</p>;
  return (
    <table class="grid" data-testid="attempts">
      <thead>
        <tr>
          <th>#</th>
          <th>Channel</th>
          <th>Status</th>
          <th>Why it failed</th>
          <th class="num">Duration</th>
        </tr>
      </thead>
      <tbody>
        {attempts.map((attempt, index) => (
          <tr key={index}>
            <td>{index + 1}</td>
            <td>{attempt.channel}</td>
            <td>{attempt.status === null ? <Badge text="no answer" tone="bad" /> : <Badge text={String(attempt.status)} tone={tone(attempt.status)} />}</td>
            <td>{[attempt.errorKind, attempt.message].filter(Boolean).join(': ') || '—'}</td>
            <td class="num">{formatMs(attempt.durationMs)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The built-in simulator's channel id: it is in no channel list. */
const BUILTIN_SIMULATOR = 'builtin-simulator';

/** Whether a simulator served the row: the built-in one, or a channel of type `simulator`. */
export function servedBySimulator(channelId: string | null, simulatorIds: ReadonlySet<string>): boolean {
  return channelId !== null && (channelId === BUILTIN_SIMULATOR || simulatorIds.has(channelId));
}

export function LogDetailView({ id, simulatorIds }: { id: string; simulatorIds: ReadonlySet<string> }) {
  const detail = useLoad(() => get<LogDetail>(`logs/${encodeURIComponent(id)}`), [id]);
  const missing = isMissing(detail.error);
  const row: LogRow | LogDetail | undefined = detail.data ?? (missing ? seen.get(id) : undefined);
  const full = detail.data;
  return (
    <section>
      <header class="view-head">
        <h1>Request {row?.requestId ?? id}</h1>
        <a href="#/logs">← Back to the logs</a>
      </header>
      {missing ? <Unavailable what="A request's detail (attempts, timings)" /> : <ErrorNote error={detail.error} />}
      {row ? (
        <div class="detail" data-testid="log-detail">
          <dl class="facts">
            <dt>Time</dt>
            <dd>{formatTime(row.createdAt)}</dd>
            <dt>Status</dt>
            <dd>
              <Badge text={String(row.httpStatus)} tone={tone(row.httpStatus)} /> {row.errorKind ? `${row.errorKind}: ${row.errorMessage ?? ''}` : null}
            </dd>
            <dt>Family</dt>
            <dd>
              {row.family}
              {row.stream ? ' (streamed)' : ''}
            </dd>
            <dt>Model</dt>
            <dd>
              {row.model}
              {row.upstreamModel && row.upstreamModel !== row.model ? ` → upstream ${row.upstreamModel}` : ''}
            </dd>
            <dt>Channel</dt>
            <dd>
              {full?.channelName ?? row.channelId ?? '—'} {servedBySimulator(row.channelId, simulatorIds) ? <Badge text="simulated" tone="info" /> : null}
            </dd>
            <dt>Tried</dt>
            <dd>{row.triedChannels.length > 0 ? row.triedChannels.join(' → ') : '—'}</dd>
            <dt>Key</dt>
            <dd>{full?.keyName ?? row.keyId ?? '—'}</dd>
            <dt>Team</dt>
            <dd>
              {full?.teamName ?? row.teamId ?? '—'}
              {row.userId ? ` · ${full?.userEmail ?? row.userId}` : ''}
            </dd>
            <dt>Client</dt>
            <dd>{row.clientIp ?? '—'}</dd>
          </dl>
          <h2>Tokens and cost</h2>
          <dl class="facts">
            <dt>Input</dt>
            <dd>
              {formatCount(row.inputTokens)}
              {estimatedNote(row, 'input')}
            </dd>
            <dt>Output</dt>
            <dd>
              {formatCount(row.outputTokens)}
              {estimatedNote(row, 'output')}
            </dd>
            <dt>Cache read / write</dt>
            <dd>
              {formatCount(row.cacheReadTokens)} / {formatCount(row.cacheWriteTokens)}
              {row.cacheWrite1hTokens ? <small class="muted"> (one-hour: {formatCount(row.cacheWrite1hTokens)})</small> : null}
            </dd>
            <dt>Reasoning</dt>
            <dd>{formatCount(row.reasoningTokens)}</dd>
            {row.images === null || row.images === undefined ? null : (
              <>
                <dt>Images</dt>
                <dd data-testid="images">{formatCount(row.images)}</dd>
              </>
            )}
            <dt>Cost</dt>
            <dd>
              {formatMoney(row.cost)}
              {row.unpriced ? <small class="error"> (unpriced: the model has no price anywhere)</small> : null}
              {row.estimated && (row.estimatedParts ?? []).length === 0 ? <small class="muted"> (tokens counted by the gateway: the upstream reported none)</small> : null}
            </dd>
            <dt>Upstream cost</dt>
            <dd data-testid="upstream-cost">
              {row.upstreamCost === null ? (
                <span class="muted">unknown (the channel has no cost table for this model)</span>
              ) : (
                <>
                  {formatMoney(row.upstreamCost)} <small class="muted">(margin {formatMoney(row.cost - row.upstreamCost)})</small>
                </>
              )}
            </dd>
          </dl>
          <h2>Timings</h2>
          <dl class="facts" data-testid="timings">
            {full ? (
              <>
                <dt>Queue</dt>
                <dd>{formatMs(full.timings.queueMs)}</dd>
              </>
            ) : null}
            {full?.timings.upstreamMs !== undefined ? (
              <>
                <dt>Upstream (all attempts)</dt>
                <dd>{formatMs(full.timings.upstreamMs)}</dd>
              </>
            ) : null}
            <dt>Upstream first byte</dt>
            <dd>{formatMs(full ? full.timings.firstByteMs : row.firstByteMs)}</dd>
            <dt>Total</dt>
            <dd>{formatMs(full ? full.timings.totalMs : row.latencyMs)}</dd>
          </dl>
          <h2>Translation</h2>
          {full?.translationPlan && (full.translationPlan.mapped.length > 0 || full.translationPlan.ignored.length > 0) ? (
            <ul class="plan" data-testid="translation">
              {full.translationPlan.mapped.length > 0 ? (
                <li>
                  <Badge text="mapped" /> {full.translationPlan.mapped.join(', ')}
                </li>
              ) : null}
              {full.translationPlan.ignored.length > 0 ? (
                <li>
                  <Badge text="ignored" tone="warn" /> {full.translationPlan.ignored.join(', ')}
                </li>
              ) : null}
            </ul>
          ) : row.translation ? (
            <ul class="plan">
              {translationParts(row.translation).map(([kind, fields], index) => (
                <li key={index}>
                  {kind ? <Badge text={kind} tone={kind === 'ignored' || kind === 'dropped' ? 'warn' : ''} /> : null} {fields}
                </li>
              ))}
            </ul>
          ) : (
            <p class="note">Nothing mapped or dropped (served natively or translated field for field).</p>
          )}
          {full ? (
            <>
              <h2>Attempts</h2>
              <Attempts attempts={full.attempts} />
            </>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

/** Says which number the gateway counted itself (the upstream's final usage never came); rows older than the parts only carry the flag, shown beside the cost. */
function estimatedNote(row: LogRow, part: 'input' | 'output') {
  return row.estimatedParts?.includes(part) ? (
    <small class="muted" data-testid={`${part}-estimated`}>
      {' '}
      {part} estimated
    </small>
  ) : null;
}
