/**
 * Starts a real gateway in-process for end-to-end tests: a temporary data
 * directory (SQLite) or a fresh PostgreSQL schema, an optional config file,
 * port 0 on loopback, quiet logs.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino, type Logger } from 'pino';
import { settingsFromEnv, type GatewaySettings } from '../../src/config/env.js';
import { createGateway, type Gateway } from '../../src/server/bootstrap.js';

export interface TestGateway {
  gateway: Gateway;
  url: string;
  adminKey: string;
  /** The client key created at first start (absent when the config declares keys). */
  clientKey: string;
  dataDir: string;
  close(): Promise<void>;
  /** Admin API call helper. */
  admin(method: string, pathname: string, body?: unknown): Promise<{ status: number; body: any }>;
}

export interface StartOptions {
  config?: Record<string, unknown>;
  env?: Record<string, string>;
  settings?: Partial<GatewaySettings>;
  /** Reuse a data directory (restart tests). */
  dataDir?: string;
  /** The gateway's logger (default: silent). */
  logger?: Logger;
}

export const TEST_ADMIN_KEY = 'sk-admin-test-0123456789';

export async function startGateway(options: StartOptions = {}): Promise<TestGateway> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'switchyard-test-')));
  let configPath: string | undefined;
  if (options.config) {
    configPath = path.join(dataDir, 'config.json');
    await writeFile(configPath, JSON.stringify(options.config));
  }
  const settings: GatewaySettings = {
    ...settingsFromEnv({ ...options.env }),
    host: '127.0.0.1',
    port: 0,
    dataDir,
    adminKey: TEST_ADMIN_KEY,
    configPath,
    logLevel: 'silent',
    refreshIntervalMs: 0,
    ...options.settings,
  };
  const gateway = await createGateway(settings, { logger: options.logger ?? pino({ level: 'silent' }) });
  const url = (await gateway.listen()).replace('[::1]', '127.0.0.1');
  const admin = async (method: string, pathname: string, body?: unknown) => {
    const response = await fetch(`${url}/admin${pathname}`, {
      method,
      headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    gateway,
    url,
    adminKey: TEST_ADMIN_KEY,
    clientKey: gateway.generated.clientKey ?? '',
    dataDir,
    admin,
    async close() {
      await gateway.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
