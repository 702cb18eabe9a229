/**
 * The generated documents (docs/reference.md, docs/admin-api.md) are what
 * `npm run docs:reference` writes from the code, and the table they come from
 * names every variable the code reads.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_VARS } from '../../src/config/env-vars.js';
import { TEST_ENV_VARS } from '../../src/config/test-env-vars.js';
import { settingsFromEnv } from '../../src/config/env.js';
import { generatedDocs } from '../../scripts/reference/documents.js';

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && /\.(ts|mjs)$/.test(entry.name) && !entry.parentPath.includes('node_modules')).map((entry) => path.join(entry.parentPath, entry.name));
}

/** SWITCHYARD_* names read from an environment object: `process.env.X`, or any `env.X` / `env['X']` when `anyEnv`. */
async function variablesRead(dir: string, anyEnv: boolean): Promise<Set<string>> {
  const pattern = anyEnv ? /env(?:\.|\[')(SWITCHYARD_[A-Z_]+)/g : /process\.env(?:\.|\[')(SWITCHYARD_[A-Z_]+)/g;
  const names = new Set<string>();
  for (const file of await sourceFiles(dir)) {
    const text = await readFile(file, 'utf8');
    for (const match of text.matchAll(pattern)) names.add(match[1]);
  }
  return names;
}

describe('generated reference', () => {
  it.each(Object.entries(generatedDocs()))('%s is up to date (npm run docs:reference)', async (file, text) => {
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('every variable the gateway parses is in the table, and every table entry is parsed', async () => {
    const parsed = await readFile('src/config/env.ts', 'utf8');
    const named = new Set([...parsed.matchAll(/'(SWITCHYARD_[A-Z_]+)'/g)].map((match) => match[1]));
    expect([...named].sort()).toEqual(Object.keys(ENV_VARS).sort());
    // Nothing else under src/ reads a SWITCHYARD_* variable on its own.
    expect([...(await variablesRead('src', true))]).toEqual([]);
  });

  it('every SWITCHYARD_* variable the tests read is listed as test-only', async () => {
    for (const name of await variablesRead('test', false)) expect(Object.keys(TEST_ENV_VARS)).toContain(name);
  });

  it('the defaults the reference shows are the ones the parser applies', () => {
    const settings = settingsFromEnv({});
    expect(settings.port).toBe(ENV_VARS.SWITCHYARD_PORT.default);
    expect(settings.maxBodyBytes).toBe(ENV_VARS.SWITCHYARD_MAX_BODY_BYTES.default);
    expect(settings.tasks.leaseMs).toBe(ENV_VARS.SWITCHYARD_TASK_LEASE_MS.default);
    expect(settings.host).toBe(ENV_VARS.SWITCHYARD_HOST.default);
    expect(settings.dataDir).toBe(path.resolve(ENV_VARS.SWITCHYARD_DATA_DIR.default));
  });

  it('parses through the table: bounds, kinds and messages naming the variable', () => {
    expect(settingsFromEnv({ SWITCHYARD_MAX_ATTEMPTS: '0', SWITCHYARD_TASK_LEASE_MS: '5' })).toMatchObject({ maxAttempts: 1, tasks: { leaseMs: 100 } });
    expect(settingsFromEnv({ SWITCHYARD_OUTBOUND_ALLOW: ' a , ,10.0.0.0/8 ' }).tasks.outboundAllow).toEqual(['a', '10.0.0.0/8']);
    expect(settingsFromEnv({ SWITCHYARD_PUBLIC_URL: 'https://x.example/// ', SWITCHYARD_HOST: '  ' })).toMatchObject({ publicUrl: 'https://x.example', host: '127.0.0.1' });
    expect(() => settingsFromEnv({ SWITCHYARD_PORT: '70000' })).toThrow('SWITCHYARD_PORT must be at most 65535, got 70000');
    expect(() => settingsFromEnv({ SWITCHYARD_REFRESH_MS: '1.5' })).toThrow('SWITCHYARD_REFRESH_MS must be a non-negative integer, got "1.5"');
  });
});
