/**
 * Budget alerts through a running gateway: a budget with an `alertUrl`
 * reaching 50 % and then 100 % of its limit posts one alert each to a
 * receiver on loopback, delivered by the task engine's callback loop and
 * retried after the receiver refused the first attempt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { startCallbackReceiver, type CallbackReceiver } from '../tasks/callback-receiver.js';

const SECRET = 'sk-budget-alerts-0001';
let gw: TestGateway;
let receiver: CallbackReceiver;

beforeAll(async () => {
  receiver = await startCallbackReceiver();
  gw = await startGateway({
    config: { keys: [{ name: 'alerted', key: SECRET }], prices: { 'alert-*': { input: 100, output: 10_000 } } },
    env: { SWITCHYARD_OUTBOUND_ALLOW: '127.0.0.1', SWITCHYARD_TASK_TICK_MS: '20', SWITCHYARD_CALLBACK_RETRY_MS: '50' },
    // The alert sweep runs on the refresh interval.
    settings: { refreshIntervalMs: 100 },
  });
});
afterAll(async () => {
  await gw?.close();
  await receiver?.close();
});

const chat = () =>
  fetch(`${gw.url}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': SECRET, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'alert-model', max_tokens: 20, messages: [{ role: 'user', content: 'spend' }] }),
  });

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe('budget alerts', () => {
  it('posts 50 % and 100 % once each, retrying a refused delivery', async () => {
    const keyId = (await gw.admin('GET', '/keys')).body.data[0].id;
    const first = await chat();
    await first.arrayBuffer();
    const cost = (await gw.admin('GET', '/logs')).body.data[0].cost as number;
    // The next request brings the period to 60 % of the limit.
    const budget = (await gw.admin('POST', '/budgets', { scopeKind: 'key', scopeId: keyId, name: 'alerted', amountUsd: cost / 0.6, period: 'monthly', alertUrl: `${receiver.url}/budget` })).body;
    receiver.answer(503);
    await (await chat()).arrayBuffer();
    await until(() => receiver.received.length >= 1, 'the first attempt');
    receiver.answer(200);
    await until(() => receiver.received.length >= 2, 'the retry');
    expect(receiver.received.map((entry) => [entry.path, entry.body.threshold])).toEqual([
      ['/budget', 50],
      ['/budget', 50],
    ]);
    expect(receiver.received[1]!.body).toMatchObject({ event: 'budget.threshold', budget: { id: budget.id, name: 'alerted', scopeKind: 'key', scopeId: keyId } });

    await (await chat()).arrayBuffer();
    await until(() => receiver.received.length >= 3, 'the 100 % alert');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received.map((entry) => entry.body.threshold)).toEqual([50, 50, 100]);
  });
});
