/**
 * Where task tests (images, videos) run their gateways, on either storage
 * engine: SQLite in a temp data dir, or PostgreSQL in a fresh schema (dropped
 * at the end). The task loop runs fast (short ticks and polls) so tests stay
 * quick. Restart and two-instance tests start several gateways on one place.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openStore } from '../../src/storage/open.js';
import { postgresConnection } from '../../src/storage/postgres-connection.js';
import type { Store } from '../../src/storage/types.js';
import { postgresUrl } from '../storage/engines.js';
import { startGateway, type StartOptions, type TestGateway } from './gateway.js';

export const FAST_TASK_ENV: Record<string, string> = {
  SWITCHYARD_TASK_TICK_MS: '15',
  SWITCHYARD_TASK_FIRST_POLL_MS: '15',
  SWITCHYARD_TASK_MAX_POLL_MS: '60',
  SWITCHYARD_TASK_LEASE_MS: '3000',
  SWITCHYARD_CALLBACK_RETRY_MS: '30',
  SWITCHYARD_OUTBOUND_ALLOW: '127.0.0.1',
};

export type Engine = 'sqlite' | 'postgres';

/** Where a test's gateways keep their data: one data dir, and for PostgreSQL one schema. */
export interface Place {
  engine: Engine;
  dataDir: string;
  schema?: string;
  start(options?: StartOptions): Promise<TestGateway>;
  /** Opens the place's database directly, as a test inspecting rows would. */
  openStore(): Promise<Store>;
  destroy(): Promise<void>;
}

export async function createPlace(engine: Engine): Promise<Place> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'switchyard-tasks-'));
  const schema = engine === 'postgres' ? `img_${randomBytes(6).toString('hex')}` : undefined;
  return {
    engine,
    dataDir,
    schema,
    start(options: StartOptions = {}) {
      return startGateway({
        ...options,
        dataDir,
        env: { ...FAST_TASK_ENV, ...options.env },
        settings: {
          ...(schema ? { databaseUrl: postgresUrl, databaseSchema: schema } : {}),
          ...options.settings,
        },
      });
    },
    openStore() {
      return openStore(schema ? { databaseUrl: postgresUrl, dataDir, schema } : { dataDir });
    },
    async destroy() {
      await rm(dataDir, { recursive: true, force: true });
      if (!schema) return;
      const client = new pg.Client(postgresConnection(postgresUrl));
      await client.connect();
      try {
        await client.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await client.end();
      }
    },
  };
}

export const ENGINES: Engine[] = process.env.SWITCHYARD_SKIP_PG === '1' ? ['sqlite'] : ['sqlite', 'postgres'];
