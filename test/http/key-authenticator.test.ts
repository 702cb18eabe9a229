/**
 * A client key is read from storage once per refresh interval; in between it
 * is checked from memory at once, without a promise (the common request pays
 * no turn of the microtask queue for it). Every refusal stays what it was.
 */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/errors.js';
import { hashKey, KeyAuthenticator } from '../../src/http/auth.js';
import type { KeyRecord, Store } from '../../src/storage/types.js';

const SECRET = 'sk-test-authenticator-0001';

function storeWith(record: Partial<KeyRecord> | null): Store & { reads: number } {
  const store = {
    reads: 0,
    keys: {
      getByHash: async (hash: string) => {
        store.reads++;
        return record && hash === hashKey(SECRET) ? ({ id: 'key_1', keyHash: hash, status: 'active', expiresAt: null, allowIps: null, ...record } as KeyRecord) : undefined;
      },
    },
  };
  return store as unknown as Store & { reads: number };
}

describe('KeyAuthenticator', () => {
  it('reads a key once, then checks it from memory without a promise', async () => {
    const store = storeWith({});
    const auth = new KeyAuthenticator(store, 60_000);
    const first = auth.authenticate(SECRET, '127.0.0.1');
    expect(first).toBeInstanceOf(Promise);
    expect((await first).record.id).toBe('key_1');
    const second = auth.authenticate(SECRET, '127.0.0.1');
    expect(second).not.toBeInstanceOf(Promise);
    expect((second as Awaited<typeof first>).record.id).toBe('key_1');
    expect(store.reads).toBe(1);
  });

  it('refuses from memory as it refuses after a read: unknown, disabled, expired, outside the allow list', async () => {
    const refusal = async (record: Partial<KeyRecord> | null, secret = SECRET, ip = '127.0.0.1') => {
      const auth = new KeyAuthenticator(storeWith(record), 60_000);
      const messages: string[] = [];
      for (let i = 0; i < 2; i++) {
        try {
          await auth.authenticate(secret, ip);
          messages.push('accepted');
        } catch (error) {
          expect(error).toBeInstanceOf(GatewayError);
          messages.push((error as GatewayError).message);
        }
      }
      expect(messages[1]).toBe(messages[0]);
      return messages[0];
    };
    expect(await refusal(null)).toBe('invalid API key');
    expect(await refusal({ status: 'disabled' } as Partial<KeyRecord>)).toBe('API key is disabled');
    expect(await refusal({ expiresAt: Date.now() - 1 })).toBe('API key has expired');
    expect(await refusal({ allowIps: ['10.0.0.0/8'] })).toBe('API key may not be used from address 127.0.0.1');
    expect(await refusal({})).toBe('accepted');
    // No key at all is refused before any read.
    const auth = new KeyAuthenticator(storeWith({}), 60_000);
    expect(() => auth.authenticate(undefined, '127.0.0.1')).toThrow('missing API key');
  });
});
