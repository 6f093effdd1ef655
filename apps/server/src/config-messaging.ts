// Message transports' settings (apps/server/src/messaging), read from the variables config.ts validated.
import type { Env } from './config.ts';

/** Where messages go (apps/server/src/messaging); `outbox` keeps them in the database only. */
export type MessagingConfig = {
  /** Base of every link put in a message (`/s/…`, `/u/…`), without a trailing slash. */
  publicBaseUrl: string;
  email: { transport: 'outbox' } | { transport: 'smtp'; url: string };
  emailFrom: string;
  sms: { transport: 'outbox' } | { transport: 'http'; apiUrl: string; accountSid: string; authToken: string };
  smsFrom: string;
};

/** The variables, as config.ts parsed them, that choose and configure the transports. */
type MessagingEnv = Pick<
  Env,
  | 'HOST'
  | 'PORT'
  | 'PUBLIC_BASE_URL'
  | 'EMAIL_TRANSPORT'
  | 'SMTP_URL'
  | 'EMAIL_FROM'
  | 'SMS_TRANSPORT'
  | 'SMS_API_URL'
  | 'SMS_ACCOUNT_SID'
  | 'SMS_AUTH_TOKEN'
  | 'SMS_FROM'
>;

/** The transports chosen, with what each one needs checked together: the settings a chosen transport lacks stop the start. */
export function messagingOf(e: MessagingEnv): MessagingConfig | { missing: string[] } {
  let email: MessagingConfig['email'] = { transport: 'outbox' };
  if (e.EMAIL_TRANSPORT === 'smtp') {
    if (!e.SMTP_URL) return { missing: ['SMTP_URL'] };
    email = { transport: 'smtp', url: e.SMTP_URL };
  }
  let sms: MessagingConfig['sms'] = { transport: 'outbox' };
  if (e.SMS_TRANSPORT === 'http') {
    const { SMS_API_URL: apiUrl, SMS_ACCOUNT_SID: accountSid, SMS_AUTH_TOKEN: authToken } = e;
    if (!apiUrl || !accountSid || !authToken) {
      const given = { SMS_API_URL: apiUrl, SMS_ACCOUNT_SID: accountSid, SMS_AUTH_TOKEN: authToken };
      return { missing: Object.entries(given).flatMap(([k, v]) => (v ? [] : [k])) };
    }
    sms = { transport: 'http', apiUrl: stripSlash(apiUrl), accountSid, authToken };
  }
  // The server's own origin when unset; a wildcard bind address is not one a link can reach.
  const host = ['0.0.0.0', '::'].includes(e.HOST) ? 'localhost' : e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST;
  return {
    publicBaseUrl: stripSlash(e.PUBLIC_BASE_URL) || `http://${host}:${e.PORT}`,
    email,
    emailFrom: e.EMAIL_FROM,
    sms,
    smsFrom: e.SMS_FROM,
  };
}

export function stripSlash(url: string | undefined): string {
  return url ? url.replace(/\/+$/, '') : '';
}
