import { describe, expect, it } from 'vitest';
import { scratchCli } from './scratch-cli.js';

const cli = scratchCli('budgets', 'each');

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
