/**
 * The CLI on a data directory of its own, made before each test (`each`) or
 * once for the file (`all`) and removed after: what a command printed,
 * parsed as JSON, or as the text it is (a usage message).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { runCli } from '../../src/cli/run.js';

export function scratchCli(name: string, scope: 'each' | 'all' = 'each'): (args: string[]) => Promise<any> {
  let root = '';
  let dataDir = '';
  (scope === 'each' ? beforeEach : beforeAll)(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), `switchyard-cli-${name}-`));
    dataDir = path.join(root, 'data');
  });
  (scope === 'each' ? afterEach : afterAll)(async () => {
    await rm(root, { recursive: true, force: true });
  });
  return async (args) => {
    let stdout = '';
    await runCli(['--data-dir', dataDir, ...args], { env: {}, stdout: (text) => (stdout += text), stderr: () => undefined });
    return stdout.startsWith('usage:') ? stdout : JSON.parse(stdout);
  };
}
