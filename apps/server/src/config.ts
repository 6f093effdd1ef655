import { z } from 'zod';
import { type MessagingConfig, messagingOf, stripSlash } from './config-messaging.ts';
import { type RetentionConfig, retentionEnv, retentionOf } from './housekeeping/retention.ts';
import { PASSWORD_HASH_COST } from './lib/crypto.ts';

/**
 * The only reader of the environment (docs/conventions.md, rule 11). Every variable is optional and
 * validated here, so a bad value stops the server at start with a message naming the variable.
 */
const booleanFlag = z.enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no']).transform((v) => ['1', 'true', 'on', 'yes'].includes(v));

const optionalUrl = z.url().optional();

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DEMO_DATA: booleanFlag.optional(),
  DEMO_PASSWORD: z.string().min(8, 'must be at least 8 characters').default('demo-password'),
  // scrypt's cost (log2 N) for new password hashes; test runs lower it (docs/decisions/088-password-hash-cost-in-tests.md).
  PASSWORD_HASH_COST: z.coerce.number().int().min(10).max(PASSWORD_HASH_COST).default(PASSWORD_HASH_COST),
  RETIRED_MASTER_EMAIL: z.email().default('master@example.com'),
  COOKIE_DOMAIN: z.string().min(1).optional(),
  API_BASE_URL: optionalUrl,
  REPUTATION_BASE_URL: optionalUrl,
  IDENTITY_BASE_URL: optionalUrl,
  // Consoles on other origins allowed to call this server (apps/server/src/plugins/cors.ts).
  CORS_ORIGINS: z
    .string()
    .regex(/^\s*https?:\/\/[^\s,/]+(\s*,\s*https?:\/\/[^\s,/]+)*\s*$/, 'must be a comma list of origins, e.g. https://console.example.com')
    .optional(),
  // SNS topics whose SES events are accepted (apps/server/src/deliverability/ses); none: every SNS message is refused.
  SES_SNS_TOPIC_ARNS: z
    .string()
    .regex(
      /^\s*arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}(\s*,\s*arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256})*\s*$/,
      'must be a comma list of SNS topic ARNs, e.g. arn:aws:sns:us-east-1:123456789012:ses-events',
    )
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().min(1).optional(),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(1|0|true|false|on|off|yes|no|\d{1,2}|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/,
      'must be on/off, a number of proxy hops, or a comma list of proxy addresses (CIDR allowed)',
    )
    .optional(),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  // Encrypts stored secrets such as feeds' SFTP passwords (docs/decisions/029-feed-ingest.md).
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').max(500).optional(),
  // On-premises installs whose SFTP servers sit on their own network (docs/decisions/034-outbound-addresses.md).
  SFTP_ALLOW_PRIVATE: booleanFlag.optional(),
  // Message transports (apps/server/src/messaging): outbox unless configured.
  PUBLIC_BASE_URL: optionalUrl,
  EMAIL_TRANSPORT: z.enum(['outbox', 'smtp']).default('outbox'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@host:587')
    .optional(),
  EMAIL_FROM: z
    .string()
    .max(200)
    .refine(isSender, 'must be an address or "Name <address>"')
    .default('Customer Feedback <no-reply@example.com>'),
  SMS_TRANSPORT: z.enum(['outbox', 'http']).default('outbox'),
  SMS_API_URL: optionalUrl,
  SMS_ACCOUNT_SID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be letters, digits, _ or -')
    .optional(),
  SMS_AUTH_TOKEN: z.string().max(200).optional(),
  SMS_FROM: z
    .string()
    .regex(
      /^(\+[1-9]\d{6,14}|(?=[^A-Za-z]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9 ]{0,10})$/,
      'must be an E.164 phone (+15555550100) or a sender id of up to 11 letters and digits, with a letter',
    )
    .default('+15555550100'),
  // Review and listing providers (apps/server/src/reputation, apps/server/src/listings): base URLs
  // point tests at local fakes; without a key a listing directory is not checked (LISTINGS_DEMO_DIRECTORY below).
  GOOGLE_BUSINESS_API_URL: z.url().default('https://mybusiness.googleapis.com'),
  GOOGLE_OAUTH_TOKEN_URL: z.url().default('https://oauth2.googleapis.com/token'),
  GOOGLE_OAUTH_CLIENT_ID: z.string().max(500).optional(),
  GOOGLE_OAUTH_CLIENT_SECRET: z.string().max(500).optional(),
  GOOGLE_PLACES_API_URL: z.url().default('https://places.googleapis.com'),
  GOOGLE_PLACES_API_KEY: z.string().max(500).optional(),
  YELP_API_URL: z.url().default('https://api.yelp.com'),
  YELP_API_KEY: z.string().max(500).optional(),
  // The Listings Tool's built-in demo directory answers for directories without a connection (as DEMO_DATA unless set).
  LISTINGS_DEMO_DIRECTORY: booleanFlag.optional(),
  // Lets the provider calls reach loopback and private addresses (local fakes; docs/decisions/034-outbound-addresses.md).
  PROVIDERS_ALLOW_PRIVATE: booleanFlag.optional(),
  // The pipeline's workers (apps/server/src/pipeline): on in the server process unless WORKERS=0.
  WORKERS: booleanFlag.optional(),
  // Browser tests move the server's clock through /api/test-clock (docs/decisions/030-test-clock.md); never in production.
  CLOCK_CONTROL: booleanFlag.optional(),
  ...retentionEnv,
});

/** The environment as validated: what config-messaging.ts reads its transports' settings from. */
export type Env = z.infer<typeof envSchema>;

/**
 * `TRUST_PROXY` as Fastify's `trustProxy`: off, every proxy (`on`), the number of hops in front
 * of the server (`1`), or the proxies' addresses (`10.0.0.0/8, 127.0.0.1`).
 */
function trustProxyOf(value: string | undefined): boolean | number | string[] {
  if (value === undefined || ['0', 'false', 'off', 'no'].includes(value)) return false;
  if (['1', 'true', 'on', 'yes'].includes(value)) return value === '1' ? 1 : true;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((s) => s.trim());
}

/** `no-reply@example.com` or `Name <no-reply@example.com>`. */
function isSender(value: string): boolean {
  const address = /^[^<>]*<([^<>]+)>$/.exec(value)?.[1] ?? value;
  return z.email().safeParse(address.trim()).success;
}

/** Review and listing providers; a null key leaves that provider unused. */
export type ProvidersConfig = {
  googleBusiness: { apiUrl: string; tokenUrl: string; clientId: string | null; clientSecret: string | null };
  googlePlaces: { apiUrl: string; apiKey: string | null };
  yelp: { apiUrl: string; apiKey: string | null };
  /** Whether provider calls may reach loopback or private addresses (never a metadata service). */
  allowPrivateHosts: boolean;
  /** Whether the built-in demo directory answers for listing directories without a connection (else: not checked). */
  demoDirectory: boolean;
};

export type Config = {
  port: number;
  host: string;
  /** `{ kind: 'pglite', dataDir }` for the embedded database; `dataDir: null` keeps it in memory. */
  database: { kind: 'pglite'; dataDir: string | null } | { kind: 'pg'; url: string };
  demoData: boolean;
  demoPassword: string;
  /** scrypt's cost (log2 N) for the hashes this server makes, and for sign-ins against unknown accounts. */
  passwordHashCost: number;
  retiredMasterEmail: string;
  cookieDomain: string | null;
  /** Base URLs the browser calls; empty string = same origin. */
  publicUrls: { api: string; reputation: string; identity: string };
  /** Exact origins (scheme, host, port) of consoles on other origins that may call this server; none by default. */
  corsOrigins: string[];
  /** SNS topic ARNs whose messages `POST /api/v1/ses/events` accepts; empty: every SNS message is refused. */
  sesSnsTopicArns: string[];
  /** SMS_AUTH_TOKEN, whatever the transport: SMS status and inbound callbacks are verified with it; null refuses them all. */
  smsAuthToken: string | null;
  logLevel: string;
  /** Built web app to serve; null serves the API only (tests). */
  webDistDir: string | null;
  session: { idleMinutes: number; absoluteHours: number };
  /**
   * Sign-in throttling (OWASP Authentication Cheat Sheet): failures counted per account *and*
   * address and per address overall within the window; past the free attempts each further try
   * waits twice as long as the one before, up to the window. No limit per account alone, so
   * nobody can lock the real user out from another address.
   */
  loginLimits: { windowMinutes: number; perAccountAndIp: number; perIp: number; baseDelaySeconds: number };
  /** Fastify's `trustProxy`: whether `X-Forwarded-For`/`-Proto` give the client address and scheme. */
  trustProxy: boolean | number | string[];
  /** Whole-request receive time limit; a client trickling its body is cut off with 408. */
  requestTimeoutMs: number;
  /** The key stored secrets are encrypted with; null: a random one kept beside the embedded database (docs/decisions/029-feed-ingest.md). */
  secretKey: string | null;
  /**
   * Whether a feed's SFTP host may be a loopback, private, link-local or reserved address (never a
   * cloud metadata service): off, only public addresses (apps/server/src/lib/outbound-address.ts).
   */
  sftpAllowPrivate: boolean;
  messaging: MessagingConfig;
  providers: ProvidersConfig;
  /** Whether `npm start` runs the pipeline's workers in the server process (`WORKERS=0`: only `npm run worker` does). */
  workers: boolean;
  /** Whether `/api/test-clock` exists, letting a signed-in administrator move the pipeline's clock (browser tests only). */
  clockControl: boolean;
  retention: RetentionConfig;
};

export type { MessagingConfig };

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Treat empty strings as unset so `FOO= npm start` behaves like not setting FOO.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const messaging = messagingOf(e);
  if ('missing' in messaging) {
    throw new ConfigError(`Invalid configuration:\n${messaging.missing.map((n) => `  ${n}: required by the chosen transport`).join('\n')}`);
  }
  const database: Config['database'] = e.DATABASE_URL ? { kind: 'pg', url: e.DATABASE_URL } : { kind: 'pglite', dataDir: e.DATA_DIR };
  return {
    port: e.PORT,
    host: e.HOST,
    database,
    demoData: e.DEMO_DATA ?? database.kind === 'pglite',
    demoPassword: e.DEMO_PASSWORD,
    passwordHashCost: e.PASSWORD_HASH_COST,
    retiredMasterEmail: e.RETIRED_MASTER_EMAIL.toLowerCase(),
    cookieDomain: e.COOKIE_DOMAIN ?? null,
    publicUrls: {
      api: stripSlash(e.API_BASE_URL),
      reputation: stripSlash(e.REPUTATION_BASE_URL),
      identity: stripSlash(e.IDENTITY_BASE_URL),
    },
    corsOrigins: (e.CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter((o) => o !== '')
      .map((o) => new URL(o).origin),
    sesSnsTopicArns: (e.SES_SNS_TOPIC_ARNS ?? '')
      .split(',')
      .map((arn) => arn.trim())
      .filter((arn) => arn !== ''),
    smsAuthToken: e.SMS_AUTH_TOKEN || null,
    logLevel: e.LOG_LEVEL,
    webDistDir: e.WEB_DIST_DIR ?? null,
    session: { idleMinutes: 120, absoluteHours: 12 },
    loginLimits: { windowMinutes: 15, perAccountAndIp: 5, perIp: 30, baseDelaySeconds: 1 },
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
    secretKey: e.SECRET_KEY ?? null,
    sftpAllowPrivate: e.SFTP_ALLOW_PRIVATE ?? false,
    messaging,
    providers: {
      googleBusiness: {
        apiUrl: stripSlash(e.GOOGLE_BUSINESS_API_URL),
        tokenUrl: e.GOOGLE_OAUTH_TOKEN_URL,
        clientId: e.GOOGLE_OAUTH_CLIENT_ID ?? null,
        clientSecret: e.GOOGLE_OAUTH_CLIENT_SECRET ?? null,
      },
      googlePlaces: { apiUrl: stripSlash(e.GOOGLE_PLACES_API_URL), apiKey: e.GOOGLE_PLACES_API_KEY ?? null },
      yelp: { apiUrl: stripSlash(e.YELP_API_URL), apiKey: e.YELP_API_KEY ?? null },
      allowPrivateHosts: e.PROVIDERS_ALLOW_PRIVATE ?? false,
      demoDirectory: e.LISTINGS_DEMO_DIRECTORY ?? e.DEMO_DATA ?? database.kind === 'pglite',
    },
    workers: e.WORKERS ?? true,
    clockControl: e.CLOCK_CONTROL ?? false,
    retention: retentionOf(e),
  };
}

/**
 * A config for tests: in-memory database, no demo data unless asked, quiet logs, and SFTP hosts on
 * this machine allowed (the tests' SFTP servers listen on 127.0.0.1; the refusals are tested with it off).
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ LOG_LEVEL: 'silent' }),
    database: { kind: 'pglite', dataDir: null },
    demoData: false,
    workers: false,
    sftpAllowPrivate: true,
    // One key for every test app and the run's seeded template, so the demo feeds' stored SFTP
    // passwords open in every copy (an in-memory database would otherwise draw a key of its own).
    secretKey: 'test-secret-key-of-at-least-32-characters',
    // The lowest cost: a test run signs in hundreds of times (docs/decisions/088-password-hash-cost-in-tests.md).
    passwordHashCost: 10,
    ...overrides,
  };
}
