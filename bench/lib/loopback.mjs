/** The benchmark only ever talks to this machine: every target URL goes through here. */
import { isIP } from 'node:net';

function isLoopbackHost(hostname) {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/** Returns the parsed URL, or throws when it is not http:// on a loopback address. */
export function loopbackUrl(text) {
  const url = new URL(text);
  if (url.protocol !== 'http:') throw new Error(`refusing ${text}: only http:// on loopback is benchmarked`);
  if (!isLoopbackHost(url.hostname)) throw new Error(`refusing ${text}: not a loopback address`);
  return url;
}
