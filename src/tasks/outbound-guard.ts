/**
 * Guards the addresses the gateway contacts on a client's or an upstream's
 * word (callback hooks, image fetches) against server-side request forgery:
 * private, loopback, link-local and other non-public addresses are refused
 * unless listed in SWITCHYARD_OUTBOUND_ALLOW (hosts or CIDR ranges).
 *
 * The check happens twice: on the URL (literal addresses) and at connect time,
 * inside the DNS lookup of a dedicated undici agent, so the address checked is
 * the address connected to (no DNS rebinding between check and use).
 */
import dns from 'node:dns';
import net from 'node:net';
import type { Agent } from 'undici';
import { loadUndici } from '../core/undici.js';
import { GatewayError } from '../core/errors.js';

/** Ranges that are never public (RFC 6890 and friends). */
const BLOCKED_V4: Array<[string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const BLOCKED_V6: Array<[string, number]> = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

function blockList(ranges: Array<[string, number]>, family: 'ipv4' | 'ipv6', into = new net.BlockList()): net.BlockList {
  for (const [address, prefix] of ranges) into.addSubnet(address, prefix, family);
  return into;
}

const blocked = blockList(BLOCKED_V6, 'ipv6', blockList(BLOCKED_V4, 'ipv4'));

/** `::ffff:10.0.0.1` is 10.0.0.1. */
function normalise(ip: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return { address: mapped[1], family: 'ipv4' };
  return { address: bare, family: net.isIPv4(bare) ? 'ipv4' : 'ipv6' };
}

export class OutboundGuard {
  private readonly allowedRanges = new net.BlockList();
  private readonly allowedHosts = new Set<string>();
  private guardedAgent: Agent | undefined;
  private closed = false;

  /** `allow`: host names (exact, case-insensitive), addresses or CIDR ranges. */
  constructor(allow: readonly string[] = []) {
    for (const raw of allow) {
      const entry = raw.trim().toLowerCase();
      if (entry === '') continue;
      const [address, bits] = entry.split('/');
      const family = net.isIP(address);
      if (family === 0) {
        this.allowedHosts.add(entry.replace(/^\[|\]$/g, ''));
        continue;
      }
      const kind = family === 4 ? 'ipv4' : 'ipv6';
      if (bits === undefined) this.allowedRanges.addAddress(address, kind);
      else this.allowedRanges.addSubnet(address, Number(bits), kind);
    }
  }

  /**
   * Use this agent for every guarded request: its lookups refuse blocked
   * addresses. Made on first use (undici is not loaded at start-up).
   */
  async agent(): Promise<Agent> {
    if (this.guardedAgent) return this.guardedAgent;
    const { Agent } = await loadUndici();
    this.guardedAgent ??= new Agent({
      connections: 64,
      keepAliveTimeout: 4_000,
      connect: { timeout: 10_000, lookup: this.lookup },
    });
    // Closed while undici was loading: the agent refuses requests like a closed one.
    if (this.closed) await this.guardedAgent.close();
    return this.guardedAgent;
  }

  /** Whether the gateway may connect to this address. */
  allowsAddress(ip: string): boolean {
    const { address, family } = normalise(ip);
    if (this.allowedRanges.check(address, family)) return true;
    return !blocked.check(address, family);
  }

  allowsHost(hostname: string): boolean {
    return this.allowedHosts.has(hostname.toLowerCase().replace(/^\[|\]$/g, ''));
  }

  /**
   * Validates a URL before use: http(s) only, no credentials, and a literal
   * address must be allowed. Names are checked when they are resolved (see
   * `agent`). Throws an invalid_request GatewayError naming `what`.
   */
  checkUrl(text: string, what: string): URL {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new GatewayError('invalid_request', `${what} is not a valid URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new GatewayError('invalid_request', `${what} must be an http or https URL`);
    }
    if (url.username || url.password) throw new GatewayError('invalid_request', `${what} must not carry credentials`);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (this.allowsHost(host)) return url;
    if (net.isIP(host) !== 0 && !this.allowsAddress(host)) {
      throw new GatewayError('invalid_request', `${what} points to a private or reserved address, which is not allowed`);
    }
    if (host === 'localhost' || host.endsWith('.localhost')) {
      throw new GatewayError('invalid_request', `${what} points to a private or reserved address, which is not allowed`);
    }
    return url;
  }

  /** A `dns.lookup` replacement that fails when any resolved address is not allowed. */
  private readonly lookup = (hostname: string, options: dns.LookupOptions, callback: (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void): void => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as dns.LookupAddress[];
      if (!this.allowsHost(hostname)) {
        const refused = list.find((entry) => !this.allowsAddress(entry.address));
        if (refused) {
          const denied: NodeJS.ErrnoException = new Error(`address of ${hostname} is private or reserved; not allowed`);
          denied.code = 'EADDRNOTALLOWED';
          return callback(denied, []);
        }
      }
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };

  async close(): Promise<void> {
    this.closed = true;
    await this.guardedAgent?.close();
  }
}
