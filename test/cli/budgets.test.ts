/**
 * The CLI's budget commands: the admin API's operations and schema, a key
 * budget naming its key by name, each change audited as `cli`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';

let root: string;
let dataDir: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'switchyard-cli-budgets-'));
  dataDir = path.join(root, 'data');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function cli(args: string[]) {
  let stdout = '';
  await runCli(['--data-dir', dataDir, ...args], { env: {}, stdout: (text) => (stdout += text), stderr: () => {} });
  return JSON.parse(stdout);
}

describe('CLI budgets', () => {
  it('creates on a key by name, lists by scope, changes, clears a limit, deletes; each audited', async () => {
    const key = await cli(['keys', 'create', '--name', 'ops']);
    const created = await cli(['budgets', 'create', '--scope-kind', 'key', '--scope-id', 'ops', '--period', 'weekly', '--amount-usd', '25', '--time-zone', 'Europe/Paris', '--name', 'ops weekly']);
    expect(created).toMatchObject({ scopeKind: 'key', scopeId: key.id, amountUsd: 25, tokens: null, period: 'weekly', timeZone: 'Europe/Paris', remaining: { usd: 25 } });
    const team = await cli(['teams', 'add', '--name', 'team-a']);
    await cli(['budgets', 'create', '--scope-kind', 'team', '--scope-id', team.id, '--period', 'monthly', '--tokens', '1000000']);
    expect((await cli(['budgets', 'list', '--scope-kind', 'key'])).map((budget: { id: string }) => budget.id)).toEqual([created.id]);
    const changed = await cli(['budgets', 'set', created.id, '--tokens', '5000', '--amount-usd', 'none']);
    expect(changed).toMatchObject({ amountUsd: null, tokens: 5000 });
    expect(await cli(['budgets', 'delete', created.id])).toEqual({ id: created.id, deleted: true });
    const actions = (await cli(['audit', 'list', '--target-kind', 'budget'])).map((entry: { action: string; actorKind: string }) => `${entry.actorKind} ${entry.action}`);
    expect(actions).toEqual(['cli budget.delete', 'cli budget.update', 'cli budget.create', 'cli budget.create']);
  });

  it('refuses a budget without a limit with the schema’s message', async () => {
    await expect(cli(['budgets', 'create', '--scope-kind', 'team', '--scope-id', 't', '--period', 'daily'])).rejects.toThrow(/a budget needs amountUsd, tokens or both/);
  });
});
