/**
 * The Redis change feed keeps listening across a lost connection: its
 * subscriber's connection is killed on the server (`CLIENT KILL ID`, found
 * by the connection name the test gave it), reconnects, subscribes again by itself, and the next change
 * another instance publishes arrives, with no unhandled rejection on the way.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChangeTopic, openChangeFeed } from '../../src/storage/change-feed.js';

const url = process.env.SWITCHYARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never happened: ${what}`);
}

describe('the Redis change feed', () => {
  const clients: Redis[] = [];
  const client = (connectionName?: string) => {
    const made = new Redis(url, { maxRetriesPerRequest: 2, connectionName });
    clients.push(made);
    return made;
  };
  afterAll(() => {
    for (const made of clients) made.disconnect();
  });

  it('subscribes again after its connection was cut', async () => {
    const namespace = `feed-${randomUUID()}`;
    const heard: ChangeTopic[] = [];
    const errors: unknown[] = [];
    const listening = await openChangeFeed({ namespace, redis: client(namespace), onChange: (topic) => heard.push(topic), onError: (error) => errors.push(error) });
    const talking = await openChangeFeed({ namespace, redis: client(), onChange: () => {}, onError: () => {} });
    const channel = `switchyard:changes:${namespace}`;
    const admin = client();
    const subscribers = async () => ((await admin.call('PUBSUB', 'NUMSUB', channel)) as [string, number])[1];

    // Both feeds listen (each instance hears the others).
    for (let i = 0; i < 400 && (await subscribers()) < 2; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    await talking.publish('keys');
    await until(() => heard.includes('keys'), 'the first change heard');

    // The listening feed's subscriber: the one connection of its name in pub/sub mode (flag P).
    const list = (await admin.call('CLIENT', 'LIST')) as string;
    const line = list.split('\n').find((entry) => entry.includes(` name=${namespace} `) && / flags=\w*P/.test(entry));
    expect(line).toBeDefined();
    await admin.call('CLIENT', 'KILL', 'ID', /id=(\d+)/.exec(line!)![1]);
    for (let i = 0; i < 400 && (await subscribers()) < 2; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await subscribers()).toBe(2);
    await talking.publish('prices');
    await until(() => heard.includes('prices'), 'a change heard after the reconnection');

    expect(errors.every((error) => /closed|ECONNRESET/i.test(String(error)))).toBe(true);
    await listening.close();
    await talking.close();
  });
});
