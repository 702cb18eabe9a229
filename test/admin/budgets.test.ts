/**
 * Budgets through the admin API: checked with the one budget schema, shown
 * with their current period (spent, remaining, resetsAt), filtered by scope,
 * and each change recorded once in the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw?.close());

describe('budgets through the admin API', () => {
  it('creates, shows the current period, filters, changes and deletes, each audited', async () => {
    const key = (await gw.admin('POST', '/keys', { name: 'budgeted' })).body;
    const created = await gw.admin('POST', '/budgets', { scopeKind: 'key', scopeId: key.id, name: 'daily cap', amountUsd: 2, period: 'daily', timeZone: 'America/New_York' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ scopeKind: 'key', scopeId: key.id, name: 'daily cap', amountUsd: 2, tokens: null, spent: { usd: 0, tokens: 0 }, remaining: { usd: 2, tokens: null } });
    // New York midnight is 04:00 or 05:00 UTC.
    expect(created.body.resetsAt).toMatch(/T0[45]:00:00\.000Z$/);
    expect(Date.parse(created.body.resetsAt)).toBeGreaterThan(Date.now());

    const teamId = (await gw.admin('POST', '/teams', { name: 'budgeted-team' })).body.id;
    const team = (await gw.admin('POST', '/budgets', { scopeKind: 'team', scopeId: teamId, tokens: 1000, period: 'lifetime' })).body;
    expect(team).toMatchObject({ timeZone: 'UTC', resetsAt: null, remaining: { usd: null, tokens: 1000 } });
    expect((await gw.admin('GET', '/budgets?scopeKind=team')).body.data.map((budget: { id: string }) => budget.id)).toEqual([team.id]);
    expect((await gw.admin('GET', `/budgets?scopeId=${key.id}`)).body.data.map((budget: { id: string }) => budget.id)).toEqual([created.body.id]);

    const changed = await gw.admin('PATCH', `/budgets/${created.body.id}`, { amountUsd: 3, period: 'weekly' });
    expect(changed.body).toMatchObject({ amountUsd: 3, period: 'weekly', scopeId: key.id });
    expect((await gw.admin('DELETE', `/budgets/${team.id}`)).body).toEqual({ id: team.id, deleted: true });
    expect((await gw.admin('GET', `/budgets/${team.id}`)).status).toBe(404);

    const audit = (await gw.admin('GET', '/audit?targetKind=budget')).body.data.map((entry: { action: string }) => entry.action);
    expect(audit).toEqual(['budget.delete', 'budget.update', 'budget.create', 'budget.create']);
  });

  it('refuses a budget without a limit, in an unknown zone, on a missing key or user, or a change that clears both limits', async () => {
    const refused = async (body: object, path = '/budgets', method = 'POST') => {
      const answer = await gw.admin(method, path, body);
      expect(answer.status).toBe(400);
      return answer.body.error.message as string;
    };
    expect(await refused({ scopeKind: 'team', scopeId: 't', period: 'daily' })).toMatch(/amountUsd: a budget needs amountUsd, tokens or both/);
    expect(await refused({ scopeKind: 'team', scopeId: 't', amountUsd: 1, period: 'daily', timeZone: 'Mars/Olympus' })).toMatch(/timeZone: must be an IANA time zone/);
    expect(await refused({ scopeKind: 'team', scopeId: 't', amountUsd: 1, period: 'hourly' })).toMatch(/^period:/);
    expect(await refused({ scopeKind: 'key', scopeId: 'key_missing', amountUsd: 1, period: 'daily' })).toMatch(/no key with id "key_missing"/);
    expect(await refused({ scopeKind: 'user', scopeId: 'user_missing', amountUsd: 1, period: 'daily' })).toMatch(/no user with id "user_missing"/);
    const teamId = (await gw.admin('POST', '/teams', { name: 'refusals-team' })).body.id;
    const budget = (await gw.admin('POST', '/budgets', { scopeKind: 'team', scopeId: teamId, amountUsd: 1, period: 'daily' })).body;
    expect(await refused({ amountUsd: null }, `/budgets/${budget.id}`, 'PATCH')).toMatch(/a budget needs amountUsd, tokens or both/);
    expect(await refused({ scopeId: 'other' }, `/budgets/${budget.id}`, 'PATCH')).toMatch(/scopeId/);
  });
});
