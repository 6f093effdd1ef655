import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { dataFeedResource } from '@admin/shared/resources/data-feeds';

/**
 * Where the server may open a connection a user configured (a feed's SFTP host): only to public
 * addresses, checked on the addresses the name resolves to, so a name pointing at the server's
 * own network (or the cloud's metadata service) is refused however it is spelled
 * (docs/decisions/034-outbound-addresses.md). The caller connects to the address returned, never
 * to the name again, so the name cannot resolve elsewhere between the check and the connect.
 */

/** What a non-public address is. */
export type AddressKind =
  | 'loopback'
  | 'unspecified'
  | 'private'
  | 'carrier-grade-nat'
  | 'unique-local'
  | 'link-local'
  | 'metadata'
  | 'multicast'
  | 'reserved';

const DESCRIBED: Record<AddressKind, string> = {
  loopback: 'a loopback address (the server itself)',
  unspecified: 'an unspecified address (the server itself)',
  private: 'a private network address',
  'carrier-grade-nat': 'a carrier-grade NAT address (100.64.0.0/10)',
  'unique-local': 'a unique local IPv6 address (fc00::/7)',
  'link-local': 'a link-local address',
  metadata: 'a cloud metadata service address',
  multicast: 'a multicast address',
  reserved: 'a reserved address (documentation, benchmarking or future use)',
};

/** Kinds an on-premises install opens with its allow-private setting; the others stay refused. */
const PRIVATE_KINDS: ReadonlySet<AddressKind> = new Set([
  'loopback',
  'private',
  'carrier-grade-nat',
  'unique-local',
  'link-local',
  'reserved',
]);

type Range = { base: bigint; bits: number; kind: AddressKind };

function v4(text: string): bigint {
  return text.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

/** An IPv6 address (`isIP` already said it is one) as a 128-bit number; a zone (`%eth0`) is dropped. */
function v6(address: string): bigint {
  let text = address.split('%')[0] ?? address;
  const tail = text.slice(text.lastIndexOf(':') + 1);
  if (tail.includes('.')) {
    const n = v4(tail);
    text = `${text.slice(0, text.length - tail.length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return all.reduce((n, group) => (n << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
}

const range4 = (cidr: string, kind: AddressKind): Range => {
  const [base = '', bits = '32'] = cidr.split('/');
  return { base: v4(base), bits: Number(bits), kind };
};
const range6 = (cidr: string, kind: AddressKind): Range => {
  const [base = '', bits = '128'] = cidr.split('/');
  return { base: v6(base), bits: Number(bits), kind };
};

// IANA's special-purpose registries; the single metadata addresses come first so they are named as such.
const V4: Range[] = [
  range4('169.254.169.254', 'metadata'), // AWS, Google Cloud, Azure, OpenStack, DigitalOcean, Oracle
  range4('169.254.170.2', 'metadata'), // AWS ECS task credentials
  range4('100.100.100.200', 'metadata'), // Alibaba Cloud
  range4('192.0.0.192', 'metadata'), // Oracle Cloud (older instances)
  range4('0.0.0.0/8', 'unspecified'),
  range4('10.0.0.0/8', 'private'),
  range4('100.64.0.0/10', 'carrier-grade-nat'),
  range4('127.0.0.0/8', 'loopback'),
  range4('169.254.0.0/16', 'link-local'),
  range4('172.16.0.0/12', 'private'),
  range4('192.0.0.0/24', 'reserved'),
  range4('192.0.2.0/24', 'reserved'),
  range4('192.88.99.0/24', 'reserved'),
  range4('192.168.0.0/16', 'private'),
  range4('198.18.0.0/15', 'reserved'),
  range4('198.51.100.0/24', 'reserved'),
  range4('203.0.113.0/24', 'reserved'),
  range4('224.0.0.0/4', 'multicast'),
  range4('240.0.0.0/4', 'reserved'),
];
const V6: Range[] = [
  range6('fd00:ec2::254', 'metadata'), // AWS over IPv6
  range6('::', 'unspecified'),
  range6('::1', 'loopback'),
  range6('64:ff9b:1::/48', 'private'), // local-use NAT64
  range6('100::/64', 'reserved'),
  range6('2001:2::/48', 'reserved'),
  range6('2001:10::/28', 'reserved'),
  range6('2001:db8::/32', 'reserved'),
  range6('3fff::/20', 'reserved'),
  range6('fc00::/7', 'unique-local'),
  range6('fe80::/10', 'link-local'),
  range6('fec0::/10', 'private'), // the former site-local
  range6('ff00::/8', 'multicast'),
];
/** IPv6 forms that carry an IPv4 address, judged by it: IPv4-mapped, NAT64 and 6to4 (shift to the IPv4 part). */
const EMBEDDING: { range: Range; shift: bigint }[] = [
  { range: range6('::ffff:0:0/96', 'reserved'), shift: 0n },
  { range: range6('64:ff9b::/96', 'reserved'), shift: 0n },
  { range: range6('2002::/16', 'reserved'), shift: 80n },
];
const GLOBAL_UNICAST = range6('2000::/3', 'reserved');

const inRange = (n: bigint, r: Range, width: number) => n >> BigInt(width - r.bits) === r.base >> BigInt(width - r.bits);

function classify4(n: bigint): AddressKind | null {
  return V4.find((r) => inRange(n, r, 32))?.kind ?? null;
}

/**
 * What kind of non-public address `ip` is, or null for a public one: `127.0.0.1` → `loopback`,
 * `::ffff:10.0.0.1` → `private`, `169.254.169.254` → `metadata`, `203.0.114.9` → null.
 */
export function classifyAddress(ip: string): AddressKind | null {
  const family = isIP(ip);
  if (family === 4) return classify4(v4(ip));
  if (family !== 6) throw new TypeError(`${ip} is not an IP address`);
  const n = v6(ip);
  const named = V6.find((r) => r.kind === 'metadata' && inRange(n, r, 128));
  if (named) return named.kind;
  const embedding = EMBEDDING.find((e) => inRange(n, e.range, 128));
  if (embedding) return classify4((n >> embedding.shift) & 0xffffffffn);
  const found = V6.find((r) => inRange(n, r, 128));
  if (found) return found.kind;
  // Everything outside 2000::/3 is unassigned or special; only global unicast leaves the building.
  return inRange(n, GLOBAL_UNICAST, 128) ? null : 'reserved';
}

/** A host refused, or a name that resolves to nothing (`reason: 'unresolved'`); its message says which and why. */
export class OutboundAddressError extends Error {
  constructor(
    message: string,
    readonly reason: AddressKind | 'unresolved',
    readonly address: string | null,
  ) {
    super(message);
  }
}

export type ResolvedAddress = { address: string; family: number };
export type LookupAll = (host: string) => Promise<ResolvedAddress[]>;

export type OutboundOptions = {
  /** Whether private, loopback, link-local and reserved addresses are allowed (on-premises installs). */
  allowPrivate: boolean;
  /** How messages name the host, e.g. "The SFTP host". */
  subject?: string;
  /** The setting that allows private addresses, named in the message of one refused for being private. */
  setting?: string;
  /** The resolver; tests pass a fake. Default: the system's (`/etc/hosts`, then DNS), every address. */
  lookup?: LookupAll;
  /** How long resolving may take. */
  timeoutMs?: number;
};

const systemLookup: LookupAll = (host) => lookup(host, { all: true });

async function resolveAll(host: string, options: OutboundOptions, subject: string): Promise<ResolvedAddress[]> {
  const timeoutMs = options.timeoutMs ?? 5000;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new OutboundAddressError(`${subject} ${host} did not resolve within ${timeoutMs / 1000} seconds.`, 'unresolved', null)),
      timeoutMs,
    );
  });
  try {
    const found = await Promise.race([(options.lookup ?? systemLookup)(host), late]);
    if (found.length === 0) throw new OutboundAddressError(`${subject} ${host} does not resolve to any address.`, 'unresolved', null);
    return found;
  } catch (err) {
    if (err instanceof OutboundAddressError) throw err;
    const code = err instanceof Error && 'code' in err && typeof err.code === 'string' ? ` (${err.code})` : '';
    throw new OutboundAddressError(`${subject} ${host} does not resolve to any address${code}.`, 'unresolved', null);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The address to connect to for `host` (a name or a literal IP, `[::1]` allowed): every address
 * the name resolves to must be public (or, with `allowPrivate`, anything but the metadata
 * services, unspecified and multicast addresses), else an `OutboundAddressError` a person can
 * read: "The SFTP host files.example.com resolves to 127.0.0.1, a loopback address (the server
 * itself); …". Connect to the answer, not to `host`. An IPv4-mapped answer comes back as IPv4.
 */
export async function resolvePublicAddress(host: string, options: OutboundOptions): Promise<string> {
  const subject = options.subject ?? 'The host';
  const name = host.trim().replace(/^\[(.*)\]$/, '$1');
  const family = isIP(name);
  const addresses = family !== 0 ? [{ address: name, family }] : await resolveAll(name, options, subject);
  for (const { address } of addresses) {
    const kind = classifyAddress(address);
    if (kind === null || (options.allowPrivate && PRIVATE_KINDS.has(kind))) continue;
    const where = family !== 0 ? `${subject} ${address} is` : `${subject} ${name} resolves to ${address},`;
    const why = PRIVATE_KINDS.has(kind)
      ? `the server connects only to public addresses${options.setting ? ` (on a private network, set ${options.setting}=on)` : ''}`
      : 'the server never connects to one';
    throw new OutboundAddressError(`${where} ${DESCRIBED[kind]}; ${why}.`, kind, address);
  }
  const [first] = addresses;
  if (!first) throw new OutboundAddressError(`${subject} ${name} does not resolve to any address.`, 'unresolved', null);
  return first.address.startsWith('::ffff:') && isIP(first.address.slice(7)) === 4 ? first.address.slice(7) : first.address;
}

/** The setting that lets a feed's SFTP host be on the server's own network (apps/server/src/config.ts). */
export const SFTP_ALLOW_PRIVATE = 'SFTP_ALLOW_PRIVATE';

/**
 * The SFTP pull's check, called right before `sftp.connect` on every pull: the address to pass as
 * `host` in place of the feed's host name, or an `OutboundAddressError` whose message is the
 * run's reason. `allowPrivate` is the server's `SFTP_ALLOW_PRIVATE` (config `sftpAllowPrivate`).
 */
export function sftpConnectAddress(
  host: string,
  options: { allowPrivate: boolean; lookup?: LookupAll; timeoutMs?: number },
): Promise<string> {
  return resolvePublicAddress(host, { ...options, subject: `The ${dataFeedResource.labels.sftp_host}`, setting: SFTP_ALLOW_PRIVATE });
}

/**
 * At save: why a feed's SFTP host is refused (the message for its field), or null. A name that
 * does not resolve now is let through, as DNS may be down for a moment: every pull checks again.
 */
export async function sftpHostRefusal(host: string, options: { allowPrivate: boolean; lookup?: LookupAll }): Promise<string | null> {
  try {
    await sftpConnectAddress(host, { ...options, timeoutMs: 2000 });
    return null;
  } catch (err) {
    if (err instanceof OutboundAddressError) return err.reason === 'unresolved' ? null : err.message;
    throw err;
  }
}
