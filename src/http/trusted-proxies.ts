/**
 * Which peers' X-Forwarded-For the gateway believes. Given to Fastify as its
 * `trustProxy` function: `request.ip` is then the rightmost X-Forwarded-For
 * entry that is not a trusted proxy (the peer itself when it is not one), and
 * X-Forwarded-Proto and X-Forwarded-Host are believed from trusted peers.
 * Without trusted proxies Fastify is given none, and `request.ip` stays the
 * socket's address at no cost per request.
 */
import { addressList, listed } from './address-list.js';

/** The trust test over a native block list (no address parsing in JavaScript per hop), or undefined for none. */
export function proxyTrust(ranges: string[] | undefined): ((address: string) => boolean) | undefined {
  if (!ranges || ranges.length === 0) return undefined;
  const list = addressList(ranges);
  return (address) => listed(list, address);
}
