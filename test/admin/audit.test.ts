/**
 * The admin API's audit trail, on both engines: each mutating endpoint
 * records exactly one entry with its action, the admin key as actor (with
 * the request id and client address), and the target's public view before
 * and after; no secret a change carried ever appears; a refused change
 * records nothing; GET /admin/audit filters and pages.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSchemas, postgresUrl, skipPostgres } from '../storage/engines.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const freshSchema = freshSchemas('audit');
const UPSTREAM_KEY = 'sk-upstream-RECOGNISABLE-0001';
const NEW_UPSTREAM_KEY = 'sk-upstream-RECOGNISABLE-0002';
const KEY_SECRET = 'sk-client-KNOWN-SECRET-123456';
const NEW_KEY_SECRET = 'sk-client-KNOWN-SECRET-654321';
const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');
const SECRETS = [UPSTREAM_KEY, NEW_UPSTREAM_KEY, KEY_SECRET, NEW_KEY_SECRET, hash(KEY_SECRET), hash(NEW_KEY_SECRET)];

describe.each([
  { engine: 'sqlite', skip: false },
  { engine: 'postgres', skip: skipPostgres },
])('the audit log through the admin API on $engine', ({ engine, skip }) => {
  let gw: TestGateway;
  beforeAll(async () => {
    if (skip) return;
    gw = await startGateway(engine === 'postgres' ? { settings: { databaseUrl: postgresUrl, databaseSchema: freshSchema() } } : {});
  });
  afterAll(() => gw?.close());

  /** The entries written since `since`, oldest first. */
  async function entriesSince(since: string | undefined) {
    const page = await gw.admin('GET', '/audit?limit=1000');
    expect(page.status).toBe(200);
    const all = page.body.data as Array<Record<string, any>>;
    const index = since === undefined ? all.length : all.findIndex((entry) => entry.id === since);
    return all.slice(0, index).reverse();
  }
  const newest = async () => ((await gw.admin('GET', '/audit?limit=1')).body.data[0]?.id as string | undefined) ?? undefined;

  /** Runs one admin call and returns the one entry it recorded (failing when it recorded none or several). */
  async function oneEntry(method: string, path: string, body?: unknown) {
    const mark = await newest();
    const answer = await gw.admin(method, path, body);
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
    const entries = await entriesSince(mark);
    expect(entries.map((entry) => entry.action)).toHaveLength(1);
    return { answer: answer.body, entry: entries[0] };
  }

  it.skipIf(skip)('records teams, users and memberships like every other change', async () => {
    const user = await oneEntry('POST', '/users', { email: 'Audited@Example.com' });
    expect(user.entry).toMatchObject({ action: 'user.create', targetKind: 'user', targetName: 'audited@example.com', before: null });
    const team = await oneEntry('POST', '/teams', { name: 'audited-team' });
    expect(team.entry).toMatchObject({ action: 'team.create', targetKind: 'team', targetName: 'audited-team' });
    const member = await oneEntry('PUT', `/teams/${team.answer.id}/members`, { userId: user.answer.id, role: 'member' });
    expect(member.entry).toMatchObject({ action: 'team-member.add', targetId: `${team.answer.id}/${user.answer.id}`, after: { role: 'member' } });
    const promoted = await oneEntry('PUT', `/teams/${team.answer.id}/members`, { userId: user.answer.id, role: 'admin' });
    expect(promoted.entry).toMatchObject({ action: 'team-member.update', before: { role: 'member' }, after: { role: 'admin' } });
    expect((await oneEntry('PATCH', `/teams/${team.answer.id}`, { description: 'research' })).entry).toMatchObject({ action: 'team.update', after: { description: 'research' } });
    expect((await oneEntry('DELETE', `/teams/${team.answer.id}/members/${user.answer.id}`)).entry).toMatchObject({ action: 'team-member.remove', after: null });
    expect((await oneEntry('DELETE', `/teams/${team.answer.id}`)).entry).toMatchObject({ action: 'team.delete', targetName: 'audited-team', after: null });
    expect((await oneEntry('DELETE', `/users/${user.answer.id}`)).entry).toMatchObject({ action: 'user.delete', targetName: 'audited@example.com' });
  });

  it.skipIf(skip)('records each change once, by the admin key, with the public views and no secret', async () => {
    const created = await oneEntry('POST', '/keys', { name: 'audited', key: KEY_SECRET, quota: 5 });
    expect(created.entry).toMatchObject({
      action: 'key.create',
      actorKind: 'admin-key',
      actorId: null,
      targetKind: 'key',
      targetId: created.answer.id,
      targetName: 'audited',
      before: null,
      after: { name: 'audited', quota: 5, status: 'active' },
    });
    expect(created.entry.requestId).toMatch(/\S/);
    expect(created.entry.clientIp).toMatch(/127\.0\.0\.1/);
    const keyId = created.answer.id;

    const updated = await oneEntry('PATCH', `/keys/${keyId}`, { quota: 7, key: NEW_KEY_SECRET });
    expect(updated.entry).toMatchObject({ action: 'key.update', before: { quota: 5 }, after: { quota: 7 } });
    const disabled = await oneEntry('DELETE', `/keys/${keyId}`);
    expect(disabled.entry).toMatchObject({ action: 'key.disable', before: { status: 'active' }, after: { status: 'disabled' } });

    const channel = await oneEntry('POST', '/channels', { name: 'audited-ch', type: 'anthropic', baseUrl: 'https://up.example', apiKey: UPSTREAM_KEY, models: ['claude-*'] });
    expect(channel.entry).toMatchObject({ action: 'channel.create', targetKind: 'channel', targetName: 'audited-ch', before: null, after: { apiKeyCount: 1, enabled: true } });
    const channelId = channel.answer.id;
    const patched = await oneEntry('PATCH', `/channels/${channelId}`, { apiKey: [NEW_UPSTREAM_KEY, UPSTREAM_KEY], weight: 4 });
    expect(patched.entry).toMatchObject({ action: 'channel.update', before: { apiKeyCount: 1, weight: 1 }, after: { apiKeyCount: 2, weight: 4, apiKeysReplaced: true } });
    const renamed = await oneEntry('PATCH', `/channels/${channelId}`, { priority: 2 });
    expect(renamed.entry.after).toMatchObject({ priority: 2, apiKeysReplaced: false });
    const reset = await oneEntry('POST', `/channels/${channelId}/health/reset`);
    expect(reset.entry).toMatchObject({ action: 'channel.health-reset', targetId: channelId });
    const price = await oneEntry('PUT', '/prices/audit-%2A', { input: 1, output: 2 });
    expect(price.entry).toMatchObject({ action: 'price.set', targetKind: 'price', targetId: 'audit-*', before: null, after: { price: { input: 1, output: 2 }, source: 'admin' } });
    const repriced = await oneEntry('PUT', '/prices/audit-%2A', { input: 3, output: 4 });
    expect(repriced.entry).toMatchObject({ before: { price: { input: 1, output: 2 } }, after: { price: { input: 3, output: 4 } } });
    const unpriced = await oneEntry('DELETE', '/prices/audit-%2A');
    expect(unpriced.entry).toMatchObject({ action: 'price.delete', before: { price: { input: 3, output: 4 } }, after: null });
    const deleted = await oneEntry('DELETE', `/channels/${channelId}`);
    expect(deleted.entry).toMatchObject({ action: 'channel.delete', targetId: channelId, before: { name: 'audited-ch' }, after: null });

    // Neither the list nor any one entry carries a secret the changes were given.
    const text = JSON.stringify((await gw.admin('GET', '/audit?limit=1000')).body) + JSON.stringify((await gw.admin('GET', `/audit/${patched.entry.id}`)).body);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(text).not.toContain('apiKeysEncrypted');
    expect(text).not.toContain('keyHash');
    expect((await gw.admin('GET', `/audit/${created.entry.id}`)).body).toEqual(created.entry);
  });

  it.skipIf(skip)('records nothing for a refused or failed change', async () => {
    const mark = await newest();
    expect((await gw.admin('POST', '/keys', { name: '' })).status).toBe(400);
    await gw.admin('POST', '/keys', { name: 'twice' });
    const clash = await gw.admin('POST', '/keys', { name: 'twice' });
    expect(clash.status).toBe(409);
    expect((await gw.admin('PATCH', '/keys/key_missing', { quota: 1 })).status).toBe(404);
    expect((await gw.admin('DELETE', '/channels/ch_missing')).status).toBe(404);
    expect((await gw.admin('POST', '/channels', { name: 'bad', type: 'anthropic', models: ['*'] })).status).toBe(400);
    expect((await gw.admin('DELETE', '/prices/never-set')).status).toBe(404);
    expect((await gw.admin('PUT', '/prices/x', { input: 'free' })).status).toBe(400);
    expect((await entriesSince(mark)).map((entry) => entry.action)).toEqual(['key.create']);
  });

  it.skipIf(skip)('filters by actor, action prefix, target and time, and pages with a cursor', async () => {
    const key = (await gw.admin('POST', '/keys', { name: 'paged' })).body;
    for (let i = 1; i <= 3; i++) await gw.admin('PATCH', `/keys/${key.id}`, { rpm: i });
    const forKey = (await gw.admin('GET', `/audit?targetKind=key&targetId=${key.id}`)).body;
    expect(forKey.data.map((entry: { action: string }) => entry.action)).toEqual(['key.update', 'key.update', 'key.update', 'key.create']);
    expect((await gw.admin('GET', `/audit?targetId=${key.id}&action=key.cr`)).body.data).toHaveLength(1);
    expect((await gw.admin('GET', `/audit?targetId=${key.id}&actor=cli`)).body.data).toEqual([]);
    expect((await gw.admin('GET', `/audit?targetId=${key.id}&actor=admin-key`)).body.data).toHaveLength(4);
    expect((await gw.admin('GET', `/audit?targetId=${key.id}&until=${forKey.data[3].at}`)).body.data).toEqual([]);

    const first = (await gw.admin('GET', `/audit?targetId=${key.id}&limit=3`)).body;
    expect(first).toMatchObject({ hasMore: true });
    const second = (await gw.admin('GET', `/audit?targetId=${key.id}&limit=3&cursor=${first.nextCursor}`)).body;
    expect(second).toMatchObject({ hasMore: false, nextCursor: null });
    expect([...first.data, ...second.data].map((entry: { id: string }) => entry.id)).toEqual(forKey.data.map((entry: { id: string }) => entry.id));

    expect((await gw.admin('GET', '/audit?actor=robot')).status).toBe(400);
    expect((await gw.admin('GET', '/audit?cursor=nonsense')).status).toBe(400);
    expect((await gw.admin('GET', '/audit/aud_missing')).status).toBe(404);
  });
});
