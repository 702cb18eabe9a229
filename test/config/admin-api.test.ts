/**
 * docs/admin-api.md's examples, sent in order to a real gateway: each answers
 * the documented status, and records carry exactly the documented fields.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EXAMPLES, CHANNEL_FIELDS, KEY_FIELDS, PRICE_FIELDS, type AdminExample } from '../../scripts/reference/admin-api.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
const ids: Record<string, string> = {};

beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
});

async function send(example: AdminExample): Promise<{ status: number; body: any }> {
  const pathname = example.path
    .replace('{key}', ids.key ?? '')
    .replace('{channel}', ids.channel ?? '')
    .replace(/^\/admin/, '');
  const body = example.body && JSON.parse(JSON.stringify(example.body).replace('{key}', ids.key ?? ''));
  return gw.admin(example.method, pathname, body);
}

describe('docs/admin-api.md examples', () => {
  for (const [name, example] of Object.entries(ADMIN_EXAMPLES) as [string, AdminExample][]) {
    it(`${name}: ${example.method} ${example.path} answers ${example.status}`, async () => {
      const { status, body } = await send(example);
      expect(status, JSON.stringify(body)).toBe(example.status);
      if (name === 'createKey') ids.key = body.id;
      if (name === 'createChannel') ids.channel = body.id;
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
