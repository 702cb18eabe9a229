/**
 * What the metrics read at scrape time: each channel's breaker state, and
 * task and callback-delivery counts by status (one grouped query each).
 */
import type { ChannelRegistry } from '../routing/channel-registry.js';
import type { ChannelHealth } from '../routing/health.js';
import type { Store } from '../storage/types.js';
import type { MetricsSources } from './metrics.js';

export function metricsSources(store: Store, channels: ChannelRegistry, health: ChannelHealth): MetricsSources {
  return {
    breakers: () => channels.all().map((channel) => ({ channel: channel.name, state: health.snapshot(channel).state })),
    tasks: async () => {
      const rows = await store.db
        .selectFrom('tasks')
        .select(['family', 'status'])
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .groupBy(['family', 'status'])
        .execute();
      return rows.map((row) => ({ family: String(row.family), status: String(row.status), count: Number(row.count) }));
    },
    deliveries: async () => {
      const rows = await store.db
        .selectFrom('task_deliveries')
        .select('status')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .groupBy('status')
        .execute();
      return rows.map((row) => ({ status: String(row.status), count: Number(row.count) }));
    },
  };
}
