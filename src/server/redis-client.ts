/**
 * Opens the Redis client, loaded only when Redis is configured. ioredis is
 * CommonJS: run from the sources its named export `Redis` is there, but in the
 * bundle `npm start` runs, a dynamic import yields only the interop namespace
 * (`default` holds module.exports), so the constructor is looked up in both.
 */
import type { Redis, RedisOptions } from 'ioredis';

type RedisConstructor = new (url: string, options: RedisOptions) => Redis;

/** `watch` gets the client as soon as it exists, before it can report anything (an error with no listener is printed unstructured). */
export async function openRedis(url: string, options: RedisOptions, watch: (client: Redis) => void): Promise<Redis> {
  const loaded = (await import('ioredis')) as unknown as { Redis?: RedisConstructor; default?: RedisConstructor & { Redis?: RedisConstructor } };
  const Constructor = loaded.Redis ?? loaded.default?.Redis ?? loaded.default;
  if (typeof Constructor !== 'function') throw new Error('the Redis client module has no constructor');
  const client = new Constructor(url, options);
  watch(client);
  return client;
}
