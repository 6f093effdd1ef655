import { SURVEY_SETTINGS_DEFAULTS } from '@admin/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { type DnsResolver, dkimTokens } from '../src/modules/survey-settings/domain-check.ts';
import { bearer, DEMO_PASSWORD, login, openDemoDatabase, testDatabaseKinds } from './helpers.ts';

/** DNS as a map: name → TXT strings or CNAME targets; anything else is "no such name". */
function fakeResolver(txt: Record<string, string[]>, cname: Record<string, string[]>): DnsResolver & { asked: string[] } {
  const asked: string[] = [];
  const missing = (name: string) => Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return {
    asked,
    async resolveTxt(name) {
      asked.push(name);
      const found = txt[name];
      if (!found) throw missing(name);
      return found.map((t) => [t]);
    },
    async resolveCname(name) {
      asked.push(name);
      const found = cname[name];
      if (!found) throw missing(name);
      return found;
    },
  };
}

for (const kind of testDatabaseKinds()) {
  describe(`Survey Admin API (${kind})`, () => {
    const dns = { txt: {} as Record<string, string[]>, cname: {} as Record<string, string[]> };
    const resolver = fakeResolver(dns.txt, dns.cname);
    let database: Database;
    let app: Awaited<ReturnType<typeof buildApp>>;
    let headers: Record<string, string>;
    let clientId: number;
    const get = (url: string) => app.inject({ method: 'GET', url, headers });
    const send = (method: 'POST' | 'PATCH', url: string, payload: Record<string, unknown> = {}) =>
      app.inject({ method, url, headers, payload });
    /** An edit of the client's settings carrying the version they were loaded at ('' when never saved), unless it names one. */
    const patch = async (payload: Record<string, unknown>) => {
      const loaded = (await get(`/api/surveys-admin/${clientId}`)).json().data;
      return send('PATCH', `/api/surveys-admin/${clientId}`, { updated_at: loaded.updated_at, ...payload });
    };
    const valid = { from_name: 'Acme Surveys', from_email: 'surveys@acme.test', unsubscribe_footer: 'Unsubscribe: {unsubscribe_link}' };

    beforeAll(async () => {
      const config = testConfig({ demoPassword: DEMO_PASSWORD });
      database = await openDemoDatabase(kind);
      app = await buildApp(config, { database, dnsResolver: resolver });
      await app.ready();
      headers = bearer(await login(app, 'admin@example.com'));
      clientId = (await get('/api/user')).json().data.user.current_client_id;
    });
    afterAll(async () => {
      await app.close();
      await database.close();
    });

    it('lists one row per client, the platform defaults where none are saved', async () => {
      const clients = (await get('/api/create-client?perPage=100&status=active,paused,inactive')).json();
      const res = await get('/api/surveys-admin?perPage=100&status=active,paused,inactive');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.total).toBe(clients.total);
      const row = body.data.find((r: { id: number }) => r.id === clientId);
      expect(row).toMatchObject({
        customized: false,
        updated_at: '',
        from_email: null,
        quiet_hours_start: '21:00',
        quiet_hours_end: '08:00',
        send_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'],
        daily_cap_per_location: 50,
        over_survey_days: 90,
        domain_verified: false,
        default_survey_id: null,
      });
      expect(row.from_name).toBe(row.client_name);
      expect(SURVEY_SETTINGS_DEFAULTS.over_survey_days).toBe(90);
    });

    it("refuses values against §8's rules, naming each field by its label", async () => {
      const bad = await patch({
        from_name: 'x'.repeat(61),
        from_email: 'not-an-email',
        reply_to: 'nope',
        sending_domain: 'not a domain',
        quiet_hours_start: '25:00',
        send_days: ['mon', 'fun'],
        daily_cap_per_location: 201,
        over_survey_days: 366,
        logo_url: 'ftp//x',
        brand_color: 'red',
        sms_sender: '1234',
        unsubscribe_footer: '',
      });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual({
        from_name: ['The From name field may not be greater than 60 characters'],
        from_email: ['The From email field must be a valid email'],
        reply_to: ['The Reply-to field must be a valid email'],
        sending_domain: ['The Sending domain field must be a valid ip address or FQDN'],
        quiet_hours_start: ['The Quiet hours start must be in the format HH:mm'],
        send_days: ['The Send days field must be a valid value'],
        daily_cap_per_location: ['The Daily cap per location field must be between 0 and 200'],
        over_survey_days: ['The Over-survey days field must be between 0 and 365'],
        logo_url: ['The Logo URL field is not a valid URL'],
        brand_color: ['The Brand color field format is invalid'],
        sms_sender: ['The SMS sender field format is invalid'],
        unsubscribe_footer: ['The Unsubscribe footer field is required'],
      });
      // A first save needs the sender: the defaults have no From email.
      const noSender = await send('PATCH', `/api/surveys-admin/${clientId}`, { over_survey_days: 30, updated_at: '' });
      expect(noSender.json().errors).toEqual({ from_email: ['The From email field is required'] });
      const ip = await patch({ ...valid, sending_domain: '10.0.0.1' });
      expect(ip.json().errors).toEqual({ sending_domain: ['The Sending domain field must be a domain name, not an IP address'] });
      const sms = await patch({ ...valid, sms_enabled: true, sms_sender: '+15555550142' });
      expect(sms.statusCode).toBe(422);
      expect(sms.json().errors).toEqual({ tcpa_consent_source: ['The TCPA consent source field is required when SMS enabled is ticked'] });
      const wrongType = await patch({ over_survey_days: 'ninety' });
      expect(wrongType.statusCode).toBe(400);
      expect(wrongType.body).toContain('over_survey_days');
    });

    it('writes the row at the first save, then checks the version stamp', async () => {
      const first = await patch({
        ...valid,
        sending_domain: 'Mail.Acme.test',
        sms_enabled: true,
        sms_sender: '12345',
        tcpa_consent_source: 'Checkbox on the booking form',
        daily_cap_per_location: 0,
        send_days: ['sat', 'mon'],
        updated_at: '',
      });
      expect(first.statusCode).toBe(200);
      const saved = first.json().data;
      expect(saved).toMatchObject({
        customized: true,
        from_email: 'surveys@acme.test',
        sending_domain: 'mail.acme.test',
        daily_cap_per_location: 0,
        over_survey_days: 90,
        send_days: ['mon', 'sat'],
        sms_sender: '12345',
      });
      // A second "first save" lost the race: refused.
      const raced = await send('PATCH', `/api/surveys-admin/${clientId}`, { ...valid, updated_at: '' });
      expect(raced.statusCode).toBe(409);
      const stale = await send('PATCH', `/api/surveys-admin/${clientId}`, { over_survey_days: 10, updated_at: '2020-01-01T00:00:00.000Z' });
      expect(stale.statusCode).toBe(409);
      // Without the version it read, an edit or a reset is refused, naming the stamp by its label.
      for (const [url, body] of [
        [`/api/surveys-admin/${clientId}`, { over_survey_days: 10 }],
        [`/api/surveys-admin/${clientId}/reset`, {}],
      ] as const) {
        const blind = await send(url.endsWith('reset') ? 'POST' : 'PATCH', url, body);
        expect(blind.statusCode).toBe(422);
        expect(blind.json()).toMatchObject({ message: 'Please correct: Last updated.', errors: { updated_at: [expect.any(String)] } });
      }
      const partial = await send('PATCH', `/api/surveys-admin/${clientId}`, { over_survey_days: 10, updated_at: saved.updated_at });
      expect(partial.statusCode).toBe(200);
      expect(partial.json().data).toMatchObject({ over_survey_days: 10, from_name: 'Acme Surveys' });
      // Turning SMS on is checked against the stored consent source too.
      const clear = await patch({ tcpa_consent_source: '' });
      expect(clear.json().errors).toHaveProperty('tcpa_consent_source');
      const got = await get(`/api/surveys-admin/${clientId}`);
      expect(got.json().data.over_survey_days).toBe(10);
      const filtered = await get(`/api/surveys-admin?client=${clientId}&verified=no`);
      expect(filtered.json().data.map((r: { id: number }) => r.id)).toEqual([clientId]);
      expect((await get('/api/surveys-admin/999999')).statusCode).toBe(404);
    });

    it('lists the DNS records to add and checks each one with the injected resolver', async () => {
      const domain = 'mail.acme.test';
      const tokens = dkimTokens(domain);
      expect(dkimTokens(domain)).toEqual(tokens);
      dns.txt[domain] = ['v=spf1 include:amazonses.com ~all'];
      dns.cname[`${tokens[0]}._domainkey.${domain}`] = [`${tokens[0]}.dkim.amazonses.com`];
      const partial = await send('POST', `/api/surveys-admin/${clientId}/verify-domain`);
      expect(partial.statusCode).toBe(200);
      const check = partial.json().data;
      expect(check.verified).toBe(false);
      expect(
        check.records.map((r: { purpose: string; name: string; value: string; found: boolean }) => [r.purpose, r.name, r.value, r.found]),
      ).toEqual([
        ['SPF', domain, 'v=spf1 include:amazonses.com ~all', true],
        ['DKIM', `${tokens[0]}._domainkey.${domain}`, `${tokens[0]}.dkim.amazonses.com`, true],
        ['DKIM', `${tokens[1]}._domainkey.${domain}`, `${tokens[1]}.dkim.amazonses.com`, false],
        ['DKIM', `${tokens[2]}._domainkey.${domain}`, `${tokens[2]}.dkim.amazonses.com`, false],
        ['DMARC', `_dmarc.${domain}`, 'v=DMARC1; p=none;', false],
      ]);
      dns.cname[`${tokens[1]}._domainkey.${domain}`] = [`${tokens[1]}.dkim.amazonses.com.`];
      dns.cname[`${tokens[2]}._domainkey.${domain}`] = [`${tokens[2]}.DKIM.amazonses.com`];
      dns.txt[`_dmarc.${domain}`] = ['v=DMARC1; p=none; rua=mailto:d@acme.test'];
      const all = (await send('POST', `/api/surveys-admin/${clientId}/verify-domain`)).json().data;
      expect(all.verified).toBe(true);
      expect(all.settings.domain_verified).toBe(true);
      expect((await get(`/api/surveys-admin?client=${clientId}&verified=yes`)).json().total).toBe(1);
      // A new domain is unverified until checked again (test e-mails then leave from the platform's address).
      const moved = await patch({ sending_domain: 'news.acme.test' });
      expect(moved.json().data.domain_verified).toBe(false);
    });

    it('sends a test e-mail through the sender: a NotificationLog row of the client in the outbox', async () => {
      const res = await send('POST', `/api/surveys-admin/${clientId}/test-email`, { to: 'owner@acme.test' });
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({ status: 'sent', error: null });
      const log = (await get(`/api/notifications-logs/${res.json().data.id}`)).json().data;
      expect(log).toMatchObject({
        client_id: clientId,
        channel: 'email',
        type: 'system',
        delivery_status: 'sent',
        subject_or_template: 'Test e-mail from Acme Surveys',
      });
      // Built as the client's invitations are: its footer with the (sample) unsubscribe link filled.
      expect(log.body_text).toContain('This is a test e-mail of');
      expect(log.body_text).toContain('/u/preview-sample-link');
      expect(log.body_text).not.toContain('{unsubscribe_link}');
      const bad = await send('POST', `/api/surveys-admin/${clientId}/test-email`, { to: 'nope' });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('to');
    });

    it('takes one of the client’s surveys that is not archived as its default survey, the column naming it', async () => {
      const mine = (await get('/api/surveys?perPage=100&status=active,paused,inactive')).json().data as { id: number; name: string }[];
      const survey = mine.find((x) => x.name.length > 0);
      expect(survey).toBeDefined();
      const options = (await get(`/api/surveys-admin/${clientId}/survey-options?perPage=100`)).json();
      expect(options.data).toContainEqual({ value: String(survey?.id), label: survey?.name });
      const others = (await get('/api/surveys?perPage=100&client=all')).json().data as { id: number; client_id: number }[];
      const foreign = others.find((x) => x.client_id !== clientId);
      if (foreign) {
        expect(options.data.map((o: { value: string }) => o.value)).not.toContain(String(foreign.id));
        const refused = await patch({ default_survey_id: foreign.id });
        expect(refused.statusCode).toBe(422);
        expect(refused.json().errors.default_survey_id[0]).toContain('Default survey');
      }
      const missing = await patch({ default_survey_id: 999_999 });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().errors.default_survey_id[0]).toMatch(/^The Default survey must be one of .+'s surveys that is not archived$/);
      const saved = await patch({ default_survey_id: survey?.id });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().data).toMatchObject({ default_survey_id: survey?.id, default_survey_name: survey?.name });
      const row = (await get(`/api/surveys-admin?client=${clientId}`)).json().data[0];
      expect(row.default_survey_name).toBe(survey?.name);
      const cleared = await patch({ default_survey_id: null });
      expect(cleared.json().data).toMatchObject({ default_survey_id: null, default_survey_name: null });
      expect((await get('/api/surveys-admin/999999/survey-options')).statusCode).toBe(404);
    });

    it('resets to the platform defaults', async () => {
      const before = (await get(`/api/surveys-admin/${clientId}`)).json().data;
      const stale = await send('POST', `/api/surveys-admin/${clientId}/reset`, { updated_at: '' });
      expect(stale.statusCode).toBe(409);
      const res = await send('POST', `/api/surveys-admin/${clientId}/reset`, { updated_at: before.updated_at });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        customized: false,
        updated_at: '',
        over_survey_days: 90,
        from_email: null,
        sending_domain: null,
      });
      const verify = await send('POST', `/api/surveys-admin/${clientId}/verify-domain`);
      expect(verify.statusCode).toBe(422);
      expect(verify.json().errors.sending_domain[0]).toContain('Sending domain');
    });

    it('exports the list as CSV with the columns as the table shows them', async () => {
      const res = await get(`/api/surveys-admin/export?client=${clientId}`);
      expect(res.statusCode).toBe(200);
      const [header, line] = res.body.replace(/^\uFEFF/, '').split(/\r?\n/);
      expect(header).toContain('Client,From name,From email/domain,SES verified,Quiet hours');
      expect(line).toContain('Platform sender');
      expect(line).toContain('21:00–08:00');
    });
  });
}
