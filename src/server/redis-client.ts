/**
 * Opens the Redis client, loaded only when Redis is configured. ioredis is
 * CommonJS: run from the sources its named export `Redis` is there, but in the
 * bundle `npm start` runs, a dynamic import yields only the interop namespace
 * (`default` holds module.exports), so the constructor is looked up in both.
 */
import type { Redis, RedisOptions } from 'ioredis';

type RedisConstructor = new (url: string, options: RedisOptions) => Redis;

export async function openRedis(url: string, options: RedisOptions): Promise<Redis> {
  const loaded = (await import('ioredis')) as unknown as { Redis?: RedisConstructor; default?: RedisConstructor & { Redis?: RedisConstructor } };
  const Constructor = loaded.Redis ?? loaded.default?.Redis ?? loaded.default;
  if (typeof Constructor !== 'function') throw new Error('the Redis client module has no constructor');
  return new Constructor(url, options);
}
