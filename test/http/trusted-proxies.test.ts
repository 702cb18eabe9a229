/**
 * The trust test Fastify walks X-Forwarded-For with: addresses and ranges of
 * both families, a dual-stack socket's IPv4-mapped peers, and text that is
 * no address (never trusted).
 */
import { describe, expect, it } from 'vitest';
import { proxyTrust } from '../../src/http/trusted-proxies.js';

describe('proxyTrust', () => {
  it('is absent without trusted proxies, so Fastify keeps the socket address', () => {
    expect(proxyTrust(undefined)).toBeUndefined();
    expect(proxyTrust([])).toBeUndefined();
  });

  it('trusts listed addresses and ranges of either family, IPv4-mapped peers included, and nothing else', () => {
    const trusted = proxyTrust(['10.213.17.10', '172.16.0.0/12', 'fd00::/8'])!;
    for (const address of ['10.213.17.10', '::ffff:10.213.17.10', '172.20.1.2', 'fd12:3456::1']) expect(trusted(address), address).toBe(true);
    for (const address of ['10.213.17.11', '203.0.113.7', '2001:db8::1', 'unknown', '', 'fd00::/8']) expect(trusted(address), address).toBe(false);
    // Asked again (answers are remembered): the same answers.
    expect([trusted('10.213.17.10'), trusted('203.0.113.7')]).toEqual([true, false]);
  });
});
