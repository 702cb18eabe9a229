/**
 * Spend beside upstream cost per channel over the overview's range (`GET
 * /admin/usage`): the margin covers only requests whose channel has a price
 * for their model in its cost table, and the table says how many had none.
 */
import { get, query } from '../api.js';
import { ErrorNote } from '../components.js';
import { formatCount, formatMoney } from '../format.js';
import { useLoad } from '../hooks.js';
import type { MarginView, UsageReport } from '../types.js';

function MarginCells({ row }: { row: MarginView }) {
  return (
    <>
      <td>{formatCount(row.requests)}</td>
      <td>{formatMoney(row.cost)}</td>
      <td>{row.costedRequests === 0 ? <span class="muted">—</span> : formatMoney(row.upstreamCost)}</td>
      <td>
        {row.margin === null ? <span class="muted">—</span> : formatMoney(row.margin)}
        {row.uncostedRequests > 0 ? <small class="muted"> ({formatCount(row.uncostedRequests)} req without a cost table left out)</small> : null}
      </td>
    </>
  );
}

export function ChannelMargins({ since, until, round }: { since: number; until: number; round: number }) {
  const report = useLoad(() => get<UsageReport>(`usage${query({ since, until })}`), [since, until, round]);
  if (report.error) return <ErrorNote error={report.error} />;
  const data = report.data;
  if (!data || data.channels.length === 0) return null;
  return (
    <table class="grid" data-testid="channel-margins">
      <thead>
        <tr>
          <th>Channel</th>
          <th>Requests</th>
          <th>Spend</th>
          <th>Upstream cost</th>
          <th>Margin</th>
        </tr>
      </thead>
      <tbody>
        {data.channels.map((row) => (
          <tr key={row.channelId ?? ''}>
            <td>{row.channelId === null ? <span class="muted">none</span> : (row.channelName ?? row.channelId)}</td>
            <MarginCells row={row} />
          </tr>
        ))}
        <tr>
          <th>Total</th>
          <MarginCells row={data.totals} />
        </tr>
      </tbody>
    </table>
  );
}
