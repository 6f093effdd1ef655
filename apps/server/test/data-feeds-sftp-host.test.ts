import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

// Names under the reserved `.test` domain answer as a hostile DNS server would, without the network.
const ANSWERS: Record<string, string[]> = {
  'files.loopback.test': ['127.0.0.1'],
  'files.rebind.test': ['203.0.114.10', '10.0.0.8'],
  'files.metadata.test': ['::ffff:169.254.169.254'],
};
vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = (async (host: string, options: object) => {
    const fake = ANSWERS[host];
    return fake
      ? fake.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
      : real.lookup(host, { ...options, all: true });
  }) as typeof real.lookup;
  return { ...real, lookup, default: { ...real, lookup } };
});

/**
 * A feed's SFTP host must be a public address (apps/server/src/lib/outbound-address.ts), checked on
 * what the name resolves to, unless SFTP_ALLOW_PRIVATE is on; a cloud metadata address never.
 */
for (const kind of testDatabaseKinds()) {
  for (const allowPrivate of [false, true]) {
    describe(`SFTP host at save, SFTP_ALLOW_PRIVATE ${allowPrivate ? 'on' : 'off'} (${kind})`, () => {
      let ctx: TestContext;
      let headers: Record<string, string>;
      let base: Record<string, unknown>;
      const send = (method: 'POST' | 'PATCH', url: string, payload: Record<string, unknown>) =>
        ctx.app.inject({ method, url, headers, payload });

      beforeAll(async () => {
        ctx = await startTestApp(kind, { sftpAllowPrivate: allowPrivate });
        headers = bearer(await login(ctx.app, 'admin@example.com'));
        const surveys = (await ctx.app.inject({ method: 'GET', url: '/api/surveys?status=active&perPage=50', headers })).json().data as {
          id: number;
        }[];
        const locations = (await ctx.app.inject({ method: 'GET', url: '/api/endpoints?perPage=50&status=active', headers })).json()
          .data as { _id: string }[];
        base = {
          name: 'Nightly drop',
          source_type: 'sftp',
          trigger_event: 'invoice_paid',
          survey_id: surveys[0]?.id,
          location_id: locations[0]?._id,
          sftp_port: 22,
          sftp_path: '/out',
          sftp_username: 'reviews',
          sftp_password: 'open-sesame',
        };
      });
      afterAll(() => ctx.close());

      const refusedEverywhere: [string, string][] = [
        ['169.254.169.254', 'The SFTP host 169.254.169.254 is a cloud metadata service address; the server never connects to one.'],
        ['0.0.0.0', 'The SFTP host 0.0.0.0 is an unspecified address (the server itself); the server never connects to one.'],
        ['::', 'The SFTP host :: is an unspecified address (the server itself); the server never connects to one.'],
        [
          '::ffff:169.254.169.254',
          'The SFTP host ::ffff:169.254.169.254 is a cloud metadata service address; the server never connects to one.',
        ],
        [
          'files.metadata.test',
          'The SFTP host files.metadata.test resolves to ::ffff:169.254.169.254, a cloud metadata service address; the server never connects to one.',
        ],
      ];
      const privateHosts: [string, string][] = [
        ['127.0.0.1', 'The SFTP host 127.0.0.1 is a loopback address (the server itself)'],
        ['::1', 'The SFTP host ::1 is a loopback address (the server itself)'],
        ['::ffff:127.0.0.1', 'The SFTP host ::ffff:127.0.0.1 is a loopback address (the server itself)'],
        ['10.1.2.3', 'The SFTP host 10.1.2.3 is a private network address'],
        ['192.168.0.10', 'The SFTP host 192.168.0.10 is a private network address'],
        ['100.64.0.1', 'The SFTP host 100.64.0.1 is a carrier-grade NAT address (100.64.0.0/10)'],
        ['fd00::1', 'The SFTP host fd00::1 is a unique local IPv6 address (fc00::/7)'],
        ['169.254.10.10', 'The SFTP host 169.254.10.10 is a link-local address'],
        ['files.loopback.test', 'The SFTP host files.loopback.test resolves to 127.0.0.1, a loopback address (the server itself)'],
        ['files.rebind.test', 'The SFTP host files.rebind.test resolves to 10.0.0.8, a private network address'],
      ];

      it('refuses metadata and unspecified addresses whatever the setting, naming the field by its label', async () => {
        for (const [host, message] of refusedEverywhere) {
          const res = await send('POST', '/api/data-feeds', { ...base, sftp_host: host });
          expect(res.statusCode, `${host}: ${res.body}`).toBe(422);
          expect(res.json().message).toBe('Please correct: SFTP host.');
          expect(res.json().errors).toEqual({ sftp_host: [message] });
        }
      });

      it(`${allowPrivate ? 'accepts' : 'refuses'} loopback, private, CGNAT, ULA and link-local hosts`, async () => {
        for (const [host, message] of privateHosts) {
          const res = await send('POST', '/api/data-feeds', { ...base, name: `Drop ${host}`, sftp_host: host });
          if (allowPrivate) {
            expect(res.statusCode, `${host}: ${res.body}`).toBe(201);
            continue;
          }
          expect(res.statusCode, `${host}: ${res.body}`).toBe(422);
          const [said] = res.json().errors.sftp_host as string[];
          expect(said).toContain(message);
          expect(said).toContain('the server connects only to public addresses (on a private network, set SFTP_ALLOW_PRIVATE=on).');
        }
      });

      it('checks an edit of the host, or of a feed turned into an SFTP feed, and lets a public or not-yet-resolving host through', async () => {
        const created = await send('POST', '/api/data-feeds', { ...base, name: 'Public drop', sftp_host: '8.8.8.8' });
        expect(created.statusCode, created.body).toBe(201);
        const feed = created.json().data as { id: number; updated_at: string };
        const moved = await send('PATCH', `/api/data-feeds/${feed.id}`, { sftp_host: '127.0.0.1', updated_at: feed.updated_at });
        expect(moved.statusCode, moved.body).toBe(allowPrivate ? 200 : 422);
        if (!allowPrivate) expect(Object.keys(moved.json().errors)).toEqual(['sftp_host']);

        const upload = await send('POST', '/api/data-feeds', {
          ...base,
          name: 'Upload feed with a leftover host',
          source_type: 'csv_upload',
          sftp_host: '127.0.0.1',
        });
        expect(upload.statusCode, upload.body).toBe(201);
        const uploadFeed = upload.json().data as { id: number; updated_at: string };
        const turned = await send('PATCH', `/api/data-feeds/${uploadFeed.id}`, {
          source_type: 'sftp',
          sftp_password: 'open-sesame',
          updated_at: uploadFeed.updated_at,
        });
        expect(turned.statusCode, turned.body).toBe(allowPrivate ? 200 : 422);

        // `.invalid` never resolves (RFC 6761): saved, and each pull checks the host again.
        const later = await send('POST', '/api/data-feeds', { ...base, name: 'Later drop', sftp_host: 'sftp.feeds.invalid' });
        expect(later.statusCode, later.body).toBe(201);
      });
    });
  }
}
