import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Allowed-IP lists of API tokens and ingest endpoints: addresses and CIDR ranges of IPv4 and IPv6
 * (checked on input by packages/shared resources/api-tokens.ts `allowedIpSchema`).
 */

/** `::ffff:203.0.113.7` (an IPv4 client on a dual-stack socket) is `203.0.113.7`. */
export function plainIp(ip: string): string {
  return ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
}

/** Whether `ip` is one of `allowed` (addresses or CIDR ranges); an empty list allows every address. */
export function ipAllowed(ip: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  const address = plainIp(ip);
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : null;
  if (!family) return false;
  const list = new BlockList();
  for (const entry of allowed) {
    const [base = '', bits] = entry.split('/');
    const type = isIPv4(base) ? 'ipv4' : isIPv6(base) ? 'ipv6' : null;
    if (!type) continue;
    if (bits === undefined) list.addAddress(base, type);
    else list.addSubnet(base, Number(bits), type);
  }
  return list.check(address, family);
}
