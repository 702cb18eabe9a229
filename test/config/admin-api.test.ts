/**
 * docs/admin-api.md's examples, sent in order to a real gateway: each answers
 * the documented status, and records carry exactly the documented fields.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EXAMPLES, CHANNEL_FIELDS, KEY_FIELDS, PRICE_FIELDS, TEAM_FIELDS, USER_FIELDS, type AdminExample } from '../../scripts/reference/admin-api.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
const ids: Record<string, string> = {};

beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
});

/** The ids earlier examples created, in place of their placeholders. */
const withIds = (text: string) =>
  text
    .replace('{key}', ids.key ?? '')
    .replace('{channel}', ids.channel ?? '')
    .replace('{team}', ids.team ?? '')
    .replace('{user}', ids.user ?? '');

async function send(example: AdminExample): Promise<{ status: number; body: any }> {
  const pathname = withIds(example.path).replace(/^\/admin/, '');
  return gw.admin(example.method, pathname, example.body && JSON.parse(withIds(JSON.stringify(example.body))));
}

describe('docs/admin-api.md examples', () => {
  for (const [name, example] of Object.entries(ADMIN_EXAMPLES) as [string, AdminExample][]) {
    it(`${name}: ${example.method} ${example.path} answers ${example.status}`, async () => {
      const { status, body } = await send(example);
      expect(status, JSON.stringify(body)).toBe(example.status);
      if (name === 'createKey') ids.key = body.id;
      if (name === 'createChannel') ids.channel = body.id;
      if (name === 'createTeam') ids.team = body.id;
      if (name === 'createUser') ids.user = body.id;
      if (name === 'getTeam') expect(Object.keys(body).sort()).toEqual([...TEAM_FIELDS].sort());
      if (name === 'getUser') expect(Object.keys(body).sort()).toEqual([...USER_FIELDS].sort());
      if (name === 'createUser') expect(body.email).toBe('ada@example.com');
      if (name === 'createUserKey') expect(body).toMatchObject({ teamId: ids.team, userId: ids.user });
      if (name === 'getTeam') expect(body).toMatchObject({ members: 1, keys: 1, activeKeys: 1, spend: 0 });
      if (name === 'removeMemberRefused') expect(body.error.message).toContain('"ada-research"');
      if (name === 'getKey') expect(Object.keys(body).sort()).toEqual([...KEY_FIELDS].sort());
      if (name === 'getChannel') expect(Object.keys(body).sort()).toEqual([...CHANNEL_FIELDS].sort());
      if (name === 'createKey') expect(body).toMatchObject({ name: 'team-b', key: expect.any(String), models: ['claude-*', 'ig_*'] });
      if (name === 'patchKey') expect(body).toMatchObject({ quota: 50, rpm: null });
      if (name === 'setPrice') expect(Object.keys(body).sort()).toEqual([...PRICE_FIELDS].sort());
      if (name === 'quotePrice') expect(body.quote).toMatchObject({ source: 'admin', matched: 'claude-sonnet-*' });
      if (name === 'patchChannel') expect(body).toMatchObject({ enabled: false, weight: 2, apiKeyCount: 2 });
    });
  }
});
