import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../src/config.ts';
import { notificationLogs } from '../src/db/schema/index.ts';
import { defaultSettingsOf, invitationEmail } from '../src/messaging/invitation.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

// Issue 19, item 6: the e-mail really sent is built from the client's Survey Admin settings —
// placeholders filled, the footer with a working unsubscribe link, logo, brand colour — and the
// From a screen shows before sending is the From the transport is given. Sent to a real SMTP
// listener on this machine, so the From checked is the one on the wire.

const VALUES = {
  firstName: 'Alex',
  locationName: 'Downtown',
  personnelName: 'Jordan',
  businessName: 'Acme',
  surveyLink: 'https://surveys.example.com/s/tok',
  unsubscribeLink: 'https://surveys.example.com/u/tok',
};
const SURVEY = {
  emailSubject: 'How was {location_name}?',
  emailBody: 'Hi {first_name}, tell us: {survey_link}',
  senderName: 'Acme',
  replyTo: null,
};
const SETTINGS = {
  ...defaultSettingsOf('Acme'),
  logo_url: 'https://cdn.example.com/acme.png',
  brand_color: '#0a5c36',
  unsubscribe_footer: 'You visited {business_name}. Unsubscribe: {unsubscribe_link}',
};

describe('invitationEmail', () => {
  it('fills the footer and puts the logo and brand colour in the HTML', () => {
    const email = invitationEmail(SURVEY, VALUES, SETTINGS);
    expect(email.subject).toBe('How was Downtown?');
    expect(email.text).toBe(
      'Hi Alex, tell us: https://surveys.example.com/s/tok\n\nYou visited Acme. Unsubscribe: https://surveys.example.com/u/tok',
    );
    expect(email.html).toContain('<img src="https://cdn.example.com/acme.png" alt="Acme"');
    expect(email.html).toContain('border-top:4px solid #0a5c36');
    // A dark brand colour is readable on white: the links take it.
    expect(email.html).toContain('<a href="https://surveys.example.com/u/tok" style="color:#0a5c36;');
    expect(email.html).toContain('overflow-wrap:anywhere');
    expect(`${email.text}${email.html}`).not.toMatch(/\{(unsubscribe_link|business_name|survey_link)\}/);
  });

  it('keeps every value escaped and takes only a web address as logo', () => {
    const email = invitationEmail(
      { ...SURVEY, emailBody: '<script>alert(1)</script> {survey_link}' },
      { ...VALUES, businessName: 'A&B <Bakery>' },
      { ...SETTINGS, logo_url: 'javascript:alert(1)', unsubscribe_footer: '<b>{business_name}</b> {unsubscribe_link}' },
    );
    expect(email.html).not.toContain('<script>');
    expect(email.html).not.toContain('<b>');
    expect(email.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(email.html).toContain('&lt;b&gt;A&amp;B &lt;Bakery&gt;&lt;/b&gt;');
    expect(email.html).not.toContain('<img');
    expect(email.html).not.toContain('javascript:');
    const quoted = invitationEmail(SURVEY, VALUES, { ...SETTINGS, logo_url: 'https://cdn.example.com/a.png" onerror="x' });
    expect(quoted.html).toContain('src="https://cdn.example.com/a.png&quot; onerror=&quot;x"');
  });

  it('keeps links dark blue when the brand colour is too light to read on white, and uses the defaults without settings', () => {
    const light = invitationEmail(SURVEY, VALUES, { ...SETTINGS, brand_color: '#ffee00' });
    expect(light.html).toContain('border-top:4px solid #ffee00');
    expect(light.html).toContain('style="color:#0b4fbf;');
    const plain = invitationEmail(SURVEY, VALUES, null);
    expect(plain.text).toContain('You received this because you visited Acme. Unsubscribe: https://surveys.example.com/u/tok');
    expect(plain.html).toContain('<strong style="font-size:18px">Acme</strong>');
    expect(plain.sender).toEqual({ name: 'Acme', address: null });
  });
});

type Mail = { from: string; raw: string };
const headerOf = (raw: string, name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(raw)?.[1]?.trim() ?? '';

for (const kind of testDatabaseKinds()) {
  describe(`E-mails built from Survey Admin (${kind})`, () => {
    let ctx: TestContext;
    let smtp: SMTPServer;
    const mails: Mail[] = [];
    let headers: Record<string, string>;
    let clientId: number;
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const send = (method: 'POST' | 'PATCH', url: string, payload: Record<string, unknown>) =>
      ctx.app.inject({ method, url, headers, payload });

    beforeAll(async () => {
      smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            mails.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              raw: Buffer.concat(chunks).toString('utf8'),
            });
            callback();
          });
        },
      });
      await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
      const port = (smtp.server.address() as AddressInfo).port;
      const messaging = testConfig().messaging;
      ctx = await startTestApp(
        kind,
        {
          messaging: {
            ...messaging,
            email: { transport: 'smtp', url: `smtp://127.0.0.1:${port}` },
            emailFrom: 'Feedback <no-reply@example.com>',
          },
        },
        // The demo as the template seeded it (to the outbox): only this app sends by SMTP.
        { demo: 'template' },
      );
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      clientId = (await get('/api/user')).json().data.user.current_client_id;
      const current = (await get(`/api/surveys-admin/${clientId}`)).json().data;
      const saved = await send('PATCH', `/api/surveys-admin/${clientId}`, {
        updated_at: current.updated_at,
        from_name: 'Acme Front Desk',
        from_email: 'surveys@acme.example',
        logo_url: SETTINGS.logo_url,
        brand_color: SETTINGS.brand_color,
        unsubscribe_footer: SETTINGS.unsubscribe_footer,
      });
      expect(saved.statusCode, saved.body).toBe(200);
    });
    afterAll(async () => {
      await ctx.close();
      await new Promise<void>((resolve) => smtp.close(resolve));
    });

    it('Send test of a survey: the message is built from Survey Admin, its unsubscribe link works, and Preview shows its From', async () => {
      const locations = (await get('/api/endpoints?perPage=1')).json().data.map((l: { _id: string }) => l._id);
      const created = await send('POST', '/api/surveys', {
        name: 'Branded invitation',
        type: 'nps',
        channel: 'email',
        location_ids: locations,
        questions: [{ id: 1, type: 'nps_0_10', text: 'How likely are you to recommend us?', required: true, is_key_metric: true }],
        email_subject: 'How was {location_name}?',
        email_body: 'Hi {first_name}: {survey_link}\nStop these: {unsubscribe_link}',
        sender_name: 'Acme Surveys',
      });
      expect(created.statusCode, created.body).toBe(201);
      const survey = created.json().data;
      mails.length = 0;
      const test = await send('POST', `/api/surveys/${survey.id}/send-test`, { to: 'pat@example.com' });
      expect(test.statusCode, test.body).toBe(201);
      const { notification_id: id, link } = test.json().data;
      const [row] = await ctx.database.db.select().from(notificationLogs).where(eq(notificationLogs.id, id));
      const token = String(link).split('/s/')[1];
      const unsubscribe = `${ctx.config.messaging.publicBaseUrl}/u/${token}`;
      const client = (await get(`/api/surveys-admin/${clientId}`)).json().data.client_name;
      expect(row?.bodyText).toContain(`You visited ${client}. Unsubscribe: ${unsubscribe}`);
      expect(row?.bodyHtml).toContain(`<a href="${unsubscribe}"`);
      expect(row?.bodyHtml).toContain('<img src="https://cdn.example.com/acme.png"');
      expect(row?.bodyHtml).toContain('#0a5c36');
      expect(`${row?.bodyText}${row?.bodyHtml}`).not.toMatch(/\{\w+\}/);

      // The footer's link opens this invitation's unsubscribe page.
      const page = await ctx.app.inject({ method: 'GET', url: `/u/${token}`, headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<h1>Unsubscribe</h1>');

      // On the wire: the survey's sender name at the platform's address (the client's domain is not verified).
      const [mail] = mails;
      expect(mail?.from).toBe('no-reply@example.com');
      expect(headerOf(mail?.raw ?? '', 'From')).toBe('Acme Surveys <no-reply@example.com>');
      const preview = (await get(`/api/surveys/${survey.id}/preview`)).json().data.email;
      expect(`${preview.from_name} <${preview.from_address}>`).toBe(headerOf(mail?.raw ?? '', 'From'));
      expect(preview.html).toContain('<img src="https://cdn.example.com/acme.png"');
    });

    it('Send test email of Survey Admin: the dialog is shown the From the message goes out with, and the footer is filled', async () => {
      const shown = await get(`/api/surveys-admin/${clientId}/test-email`);
      expect(shown.statusCode, shown.body).toBe(200);
      expect(shown.json().data).toMatchObject({ from: 'Acme Front Desk <no-reply@example.com>', reply_to: null });
      mails.length = 0;
      const sent = await send('POST', `/api/surveys-admin/${clientId}/test-email`, { to: 'owner@example.com' });
      expect(sent.statusCode, sent.body).toBe(201);
      expect(headerOf(mails[0]?.raw ?? '', 'From')).toBe(shown.json().data.from);
      const [row] = await ctx.database.db.select().from(notificationLogs).where(eq(notificationLogs.id, sent.json().data.id));
      expect(row?.bodyText).toContain(`Unsubscribe: ${ctx.config.messaging.publicBaseUrl}/u/preview-sample-link`);
      // A test belongs to no invitation: its link says what it does in a real one, rather than "not found".
      const sample = await ctx.app.inject({ method: 'GET', url: '/u/preview-sample-link', headers: { accept: 'text/html' } });
      expect(sample.statusCode).toBe(200);
      expect(sample.body).toContain('<h1>This is a sample link</h1>');
      expect(row?.bodyHtml).toContain('<img src="https://cdn.example.com/acme.png"');
      expect(`${row?.bodyText}${row?.bodyHtml}`).not.toMatch(/\{\w+\}/);
    });
  });
}
