import { describe, expect, it } from 'vitest';
import {
  type AddressKind,
  classifyAddress,
  type LookupAll,
  OutboundAddressError,
  resolvePublicAddress,
  sftpConnectAddress,
} from './outbound-address.ts';

describe('classifyAddress', () => {
  const cases: [string, AddressKind | null][] = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.20', 'private'],
    ['100.64.0.1', 'carrier-grade-nat'],
    ['100.127.255.255', 'carrier-grade-nat'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['192.0.0.192', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['192.0.0.8', 'reserved'],
    // Public neighbours of the ranges above.
    ['8.8.8.8', null],
    ['1.1.1.1', null],
    ['9.255.255.255', null],
    ['11.0.0.0', null],
    ['100.63.255.255', null],
    ['100.128.0.0', null],
    ['172.15.255.255', null],
    ['172.32.0.0', null],
    ['192.167.255.255', null],
    ['192.169.0.0', null],
    ['169.253.255.255', null],
    ['203.0.114.9', null],
    ['223.255.255.255', null],
    // IPv6.
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fd00:ec2::254', 'metadata'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['100::1', 'reserved'],
    ['::2', 'reserved'],
    ['4000::1', 'reserved'],
    ['64:ff9b:1::a', 'private'],
    // IPv6 forms that carry an IPv4 address are judged by it.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:8.8.8.8', null],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['64:ff9b::8.8.8.8', null],
    ['2002:7f00:1::', 'loopback'],
    ['2002:0a00:0001::1', 'private'],
    ['2002:0808:0808::1', null],
    ['2001:4860:4860::8888', null],
    ['2606:4700:4700::1111', null],
    ['2a00:1450:4001:81c::200e', null],
  ];
  it.each(cases)('%s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });

  it('refuses what is not an address', () => {
    expect(() => classifyAddress('localhost')).toThrow(TypeError);
  });
});

describe('resolvePublicAddress', () => {
  const fake =
    (answers: Record<string, string[]>): LookupAll =>
    async (host) => {
      const found = answers[host];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
  const refusal = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (err) {
      if (err instanceof OutboundAddressError) return err;
      throw err;
    }
    throw new Error('not refused');
  };

  it('answers the checked address of a public name, an IPv4-mapped one as IPv4', async () => {
    const lookup = fake({ 'files.example.net': ['203.0.114.10', '2001:4860::1'], 'mapped.example.net': ['::ffff:8.8.4.4'] });
    expect(await resolvePublicAddress('files.example.net', { allowPrivate: false, lookup })).toBe('203.0.114.10');
    expect(await resolvePublicAddress('mapped.example.net', { allowPrivate: false, lookup })).toBe('8.8.4.4');
    expect(await resolvePublicAddress('8.8.8.8', { allowPrivate: false, lookup })).toBe('8.8.8.8');
    expect(await resolvePublicAddress('[2606:4700::1]', { allowPrivate: false, lookup })).toBe('2606:4700::1');
  });

  it('refuses a name when any of its addresses is not public, saying which and why', async () => {
    const lookup = fake({ 'rebind.example.net': ['203.0.114.10', '127.0.0.1'] });
    const err = await refusal(sftpConnectAddress('rebind.example.net', { allowPrivate: false, lookup }));
    expect(err.reason).toBe('loopback');
    expect(err.address).toBe('127.0.0.1');
    expect(err.message).toBe(
      'The SFTP host rebind.example.net resolves to 127.0.0.1, a loopback address (the server itself); the server connects only to public addresses (on a private network, set SFTP_ALLOW_PRIVATE=on).',
    );
  });

  it('refuses literal addresses of every non-public kind without a lookup', async () => {
    const lookup: LookupAll = async () => {
      throw new Error('no lookup for a literal address');
    };
    for (const [host, reason] of [
      ['127.0.0.1', 'loopback'],
      ['0.0.0.0', 'unspecified'],
      ['::1', 'loopback'],
      ['[::1]', 'loopback'],
      ['169.254.169.254', 'metadata'],
      ['10.0.0.5', 'private'],
      ['100.64.1.1', 'carrier-grade-nat'],
      ['fd00::5', 'unique-local'],
      ['::ffff:192.168.0.1', 'private'],
      ['224.0.0.251', 'multicast'],
    ] as const) {
      const err = await refusal(sftpConnectAddress(host, { allowPrivate: false, lookup }));
      expect(err.reason, host).toBe(reason);
    }
    const metadata = await refusal(sftpConnectAddress('169.254.169.254', { allowPrivate: false, lookup }));
    expect(metadata.message).toBe('The SFTP host 169.254.169.254 is a cloud metadata service address; the server never connects to one.');
  });

  it('with allowPrivate lets the server’s own network through, never metadata, unspecified or multicast', async () => {
    const lookup = fake({ 'sftp.corp.internal': ['10.0.0.7'], 'meta.example.net': ['10.0.0.7', '169.254.169.254'] });
    for (const host of ['127.0.0.1', '::1', '10.0.0.7', '192.168.1.4', '100.64.0.9', 'fd00::1', 'fe80::1', 'sftp.corp.internal']) {
      expect(await resolvePublicAddress(host, { allowPrivate: true, lookup }), host).toBe(
        host === 'sftp.corp.internal' ? '10.0.0.7' : host,
      );
    }
    for (const [host, reason] of [
      ['169.254.169.254', 'metadata'],
      ['meta.example.net', 'metadata'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['239.1.1.1', 'multicast'],
    ] as const) {
      expect((await refusal(resolvePublicAddress(host, { allowPrivate: true, lookup }))).reason, host).toBe(reason);
    }
  });

  it('says so when a name resolves to nothing or too slowly', async () => {
    const missing = await refusal(sftpConnectAddress('nowhere.example.net', { allowPrivate: false, lookup: fake({}) }));
    expect(missing.reason).toBe('unresolved');
    expect(missing.message).toBe('The SFTP host nowhere.example.net does not resolve to any address (ENOTFOUND).');
    const slow: LookupAll = () => new Promise(() => undefined);
    const late = await refusal(resolvePublicAddress('slow.example.net', { allowPrivate: false, lookup: slow, timeoutMs: 20 }));
    expect(late.reason).toBe('unresolved');
    expect(late.message).toBe('The host slow.example.net did not resolve within 0.02 seconds.');
  });

  it('resolves with the system resolver: localhost is loopback', async () => {
    const err = await refusal(sftpConnectAddress('localhost', { allowPrivate: false }));
    expect(err.reason).toBe('loopback');
    expect(err.message).toMatch(/^The SFTP host localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(['127.0.0.1', '::1']).toContain(await sftpConnectAddress('localhost', { allowPrivate: true }));
  });
});
