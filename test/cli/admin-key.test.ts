/**
 * Recovering a lost admin key: `admin-key rotate` against the gateway's data
 * directory prints a new key; after a restart the new key works and the old
 * one is refused. With SWITCHYARD_ADMIN_KEY set it refuses (the variable wins).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { startGateway } from '../support/gateway.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'switchyard-admin-key-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function rotate(env: NodeJS.ProcessEnv): Promise<any> {
  let out = '';
  await runCli(['admin-key', 'rotate'], { env, stdout: (text) => (out += text), stderr: () => undefined });
  return JSON.parse(out);
}

async function adminStatus(url: string, key: string): Promise<number> {
  return (await fetch(`${url}/admin/keys`, { headers: { authorization: `Bearer ${key}` } })).status;
}

describe('admin-key rotate', () => {
  it('replaces a lost generated admin key; the new one works after a restart, the old one no longer', async () => {
    const first = await startGateway({ dataDir, settings: { adminKey: undefined } });
    const lost = first.gateway.generated.adminKey as string;
    expect(lost).toMatch(/^sk-admin-/);
    expect(await adminStatus(first.url, lost)).toBe(200);
    await first.close();

    const { adminKey } = await rotate({ SWITCHYARD_DATA_DIR: dataDir });
    expect(adminKey).toMatch(/^sk-admin-/);
    expect(adminKey).not.toBe(lost);

    const second = await startGateway({ dataDir, settings: { adminKey: undefined } });
    try {
      expect(second.gateway.generated.adminKey).toBeUndefined();
      expect(await adminStatus(second.url, adminKey)).toBe(200);
      expect(await adminStatus(second.url, lost)).toBe(401);
    } finally {
      await second.close();
    }
  });

  it('refuses while SWITCHYARD_ADMIN_KEY decides the key', async () => {
    await expect(rotate({ SWITCHYARD_DATA_DIR: dataDir, SWITCHYARD_ADMIN_KEY: 'sk-admin-from-env' })).rejects.toThrow('SWITCHYARD_ADMIN_KEY is set');
  });
});
