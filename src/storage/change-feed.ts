/**
 * Tells every instance at once that keys, channels, prices or budgets changed (an
 * admin write on one of them), so a disabled key or channel is refused and a
 * new price charged cluster-wide within a round trip rather than the refresh
 * interval, which stays as the fallback. Redis pub/sub when Redis is
 * configured, else PostgreSQL LISTEN/NOTIFY; on SQLite (one instance) there
 * is no one else to tell.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { postgresConnection } from './postgres-connection.js';

export type ChangeTopic = 'keys' | 'channels' | 'prices' | 'budgets';
const TOPICS: ReadonlySet<string> = new Set<ChangeTopic>(['keys', 'channels', 'prices', 'budgets']);

export interface ChangeFeed {
  /** Tells the other instances; never throws (the refresh interval is the fallback). */
  publish(topic: ChangeTopic): Promise<void>;
  close(): Promise<void>;
}

export interface ChangeFeedOptions {
  /** Separates clusters sharing one Redis or PostgreSQL server (the schema name, say). */
  namespace: string;
  onChange: (topic: ChangeTopic) => void;
  onError: (error: unknown) => void;
  redis?: Redis;
  databaseUrl?: string;
}

/** Messages are `<origin> <topic>`; an instance ignores its own (it already applied the change). */
function parse(origin: string, message: string, onChange: (topic: ChangeTopic) => void): void {
  const [from, topic] = message.split(' ');
  if (from !== origin && TOPICS.has(topic)) onChange(topic as ChangeTopic);
}

export async function openChangeFeed(options: ChangeFeedOptions): Promise<ChangeFeed> {
  const origin = randomUUID();
  if (options.redis) return openRedisFeed(origin, options.redis, options);
  if (options.databaseUrl) return openPostgresFeed(origin, options.databaseUrl, options);
  return { publish: async () => {}, close: async () => {} };
}

async function openRedisFeed(origin: string, redis: Redis, options: ChangeFeedOptions): Promise<ChangeFeed> {
  const channel = `switchyard:changes:${options.namespace}`;
  // A subscribed connection can do nothing else: the feed listens on its own.
  // ioredis's own resubscription after a reconnection leaves its promise
  // unhandled, and a connection lost again at that moment would end the
  // process: the feed subscribes again itself, on every ready connection.
  const subscriber = redis.duplicate({ autoResubscribe: false });
  subscriber.on('error', options.onError);
  subscriber.on('message', (_channel: string, message: string) => parse(origin, message, options.onChange));
  subscriber.on('ready', () => void subscriber.subscribe(channel).catch(options.onError));
  return {
    publish: async (topic) => {
      await redis.publish(channel, `${origin} ${topic}`).catch(options.onError);
    },
    close: async () => {
      subscriber.disconnect();
    },
  };
}

async function openPostgresFeed(origin: string, url: string, options: ChangeFeedOptions): Promise<ChangeFeed> {
  const channel = `switchyard_changes_${options.namespace}`.slice(0, 63);
  const { default: postgres } = await import('pg');
  let listener: pg.Client | undefined;
  let closed = false;
  const listen = async (): Promise<void> => {
    const client = new postgres.Client(postgresConnection(url));
    client.on('notification', (message) => message.payload && parse(origin, message.payload, options.onChange));
    // A lost connection is opened again; changes made meanwhile arrive with the periodic refresh.
    client.on('error', (error) => {
      options.onError(error);
      client.end().catch(() => {});
      if (!closed) setTimeout(() => void listen().catch(options.onError), 1000).unref();
    });
    await client.connect();
    await client.query(`listen "${channel}"`);
    listener = client;
  };
  await listen().catch(options.onError);
  // Notifications go out on a short-lived client of their own; admin writes are rare.
  return {
    publish: async (topic) => {
      const client = new postgres.Client(postgresConnection(url));
      try {
        await client.connect();
        await client.query('select pg_notify($1, $2)', [channel, `${origin} ${topic}`]);
      } catch (error) {
        options.onError(error);
      } finally {
        await client.end().catch(() => {});
      }
    },
    close: async () => {
      closed = true;
      await listener?.end().catch(() => {});
    },
  };
}
