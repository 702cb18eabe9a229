/**
 * Which peers' X-Forwarded-For the gateway believes. Given to Fastify as its
 * `trustProxy` function: `request.ip` is then the rightmost X-Forwarded-For
 * entry that is not a trusted proxy (the peer itself when it is not one), and
 * X-Forwarded-Proto and X-Forwarded-Host are believed from trusted peers.
 * Without trusted proxies Fastify is given none, and `request.ip` stays the
 * socket's address at no cost per request.
 */
import { addressList, listed } from './address-list.js';

/** Decisions remembered; bounded, as the addresses in X-Forwarded-For are the clients'. */
const REMEMBERED_LIMIT = 10_000;

/**
 * The trust test, or undefined for none. Fastify asks it on every read of
 * `request.ip` (several per request), and a block-list check costs
 * microseconds, so each address's answer is remembered: the proxies' own
 * addresses repeat on every request.
 */
export function proxyTrust(ranges: string[] | undefined): ((address: string) => boolean) | undefined {
  if (!ranges || ranges.length === 0) return undefined;
  const list = addressList(ranges);
  const remembered = new Map<string, boolean>();
  return (address) => {
    let trusted = remembered.get(address);
    if (trusted === undefined) {
      if (remembered.size >= REMEMBERED_LIMIT) remembered.clear();
      trusted = listed(list, address);
      remembered.set(address, trusted);
    }
    return trusted;
  };
}
