/** What the server writes into `/runtime-config.js`; every field optional so dev and tests work without it. */
export type RuntimeConfig = {
  apiBaseUrl: string;
  reputationBaseUrl: string;
  identityBaseUrl: string;
  retiredMasterEmail: string;
  cookieDomain: string | null;
  /** Days the server keeps ingest API calls (API_CALL_LOGS_RETENTION_DAYS); null: forever; undefined: not said (dev server). */
  apiCallLogRetentionDays: number | null | undefined;
};

declare global {
  interface Window {
    __ADMIN_CONFIG__?: Partial<RuntimeConfig>;
  }
}

export function runtimeConfig(): RuntimeConfig {
  const c = (typeof window !== 'undefined' && window.__ADMIN_CONFIG__) || {};
  return {
    apiBaseUrl: c.apiBaseUrl ?? '',
    reputationBaseUrl: c.reputationBaseUrl ?? '',
    identityBaseUrl: c.identityBaseUrl ?? '',
    retiredMasterEmail: (c.retiredMasterEmail ?? 'master@example.com').toLowerCase(),
    cookieDomain: c.cookieDomain ?? null,
    apiCallLogRetentionDays: c.apiCallLogRetentionDays,
  };
}
