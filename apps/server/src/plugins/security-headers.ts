import fp from 'fastify-plugin';

/** One year, subdomains included: the console and its API hosts are HTTPS-only once deployed so. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Static security headers, computed once at start and set in one onSend hook: helmet's
 * per-request work cost ~60% of throughput when measured here (bench/README.md, security headers).
 */
export const securityHeadersPlugin = fp<{ connectOrigins: string[] }>(
  async (app, { connectOrigins }) => {
    const csp = [
      "default-src 'self'",
      "script-src 'self'",
      // Mantine writes its CSS variables into a <style> element at runtime.
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self' data:",
      `connect-src ${["'self'", ...connectOrigins].join(' ')}`,
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; ');
    const common: Record<string, string> = {
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-frame-options': 'DENY',
      'cross-origin-opener-policy': 'same-origin',
    };
    app.addHook('onSend', async (request, reply, payload) => {
      reply.headers(common);
      reply.header('x-request-id', request.id);
      // Over HTTPS (directly, or behind a proxy trusted by TRUST_PROXY) browsers are told to
      // stay on HTTPS; over plain HTTP the header would be ignored, so it is not sent.
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
      // API answers carry data of the signed-in user: never cached. Files set their own policy.
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      return payload;
    });
  },
  { name: 'security-headers' },
);
