/** What the gateway billed, per client key and model, read from its admin API (`/admin/usage` flushes the request log first). */
import { request } from 'undici';
import { ADMIN_KEY } from './gateway-setup.mjs';

async function adminGet(baseUrl, path) {
  const res = await request(`${baseUrl}/admin${path}`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`GET /admin${path} answered ${res.statusCode}: ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

/** `${key name}\u0000${model}` → { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, cacheWrite1hTokens, cost, requests }. */
export async function billedUsage(baseUrl) {
  const keys = await adminGet(baseUrl, '/keys');
  const names = new Map(keys.data.map((key) => [key.id, key.name]));
  const usage = await adminGet(baseUrl, '/usage');
  return new Map(usage.data.map((row) => [`${names.get(row.keyId) ?? row.keyId}\u0000${row.model}`, row]));
}
