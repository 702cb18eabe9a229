/**
 * Lists of IP addresses and CIDR ranges checked natively (`net.BlockList`):
 * a key's `allowIps` and the trusted proxies.
 */
import net from 'node:net';

/** A block list of already-validated addresses and CIDR ranges (IPv4 and IPv6). */
export function addressList(ranges: string[]): net.BlockList {
  const list = new net.BlockList();
  for (const range of ranges) {
    const [address, prefix] = range.split('/');
    const family = net.isIPv6(address) ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

/** An address as the list compares it: an IPv4-mapped IPv6 address (a dual-stack socket's) as plain IPv4. */
export function normaliseIp(ip: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return net.isIPv4(mapped) ? { address: mapped, family: 'ipv4' } : { address: mapped, family: 'ipv6' };
}

/** Whether `ip` is in the list; text that is no address never is. */
export function listed(list: net.BlockList, ip: string): boolean {
  const { address, family } = normaliseIp(ip);
  return net.isIP(address) !== 0 && list.check(address, family);
}
