import { createHash } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import type { DnsRecord } from '@admin/shared';

/** What the check asks of DNS; tests pass their own so they never touch the network. */
export type DnsResolver = {
  resolveTxt(name: string): Promise<string[][]>;
  resolveCname(name: string): Promise<string[]>;
};

/** The system's resolver, one try of a few seconds per name: a check must answer while the user waits. */
export function systemResolver(): DnsResolver {
  const resolver = new Resolver({ timeout: 3000, tries: 1 });
  return { resolveTxt: (name) => resolver.resolveTxt(name), resolveCname: (name) => resolver.resolveCname(name) };
}

/**
 * The three DKIM tokens of a domain. Amazon SES issues its own when the identity is created; until
 * the console creates identities through SES's API they are derived from the domain, so they stay
 * the same at every check and the records staff copied remain right.
 */
export function dkimTokens(domain: string): string[] {
  return [1, 2, 3].map((i) => createHash('sha256').update(`${domain}#dkim${i}`).digest('hex').slice(0, 32));
}

/** The records to add for a sending domain, none checked yet. */
export function recordsFor(domain: string): DnsRecord[] {
  return [
    { purpose: 'SPF', type: 'TXT', name: domain, value: 'v=spf1 include:amazonses.com ~all', found: false },
    ...dkimTokens(domain).map(
      (token): DnsRecord => ({
        purpose: 'DKIM',
        type: 'CNAME',
        name: `${token}._domainkey.${domain}`,
        value: `${token}.dkim.amazonses.com`,
        found: false,
      }),
    ),
    { purpose: 'DMARC', type: 'TXT', name: `_dmarc.${domain}`, value: 'v=DMARC1; p=none;', found: false },
  ];
}

const lower = (s: string) => s.trim().toLowerCase().replace(/\.$/, '');

/** Whether DNS holds one record: a missing name or a failed lookup is "not found", never an error. */
async function holds(resolver: DnsResolver, record: DnsRecord): Promise<boolean> {
  try {
    if (record.type === 'CNAME') return (await resolver.resolveCname(record.name)).some((v) => lower(v) === lower(record.value));
    const texts = (await resolver.resolveTxt(record.name)).map((chunks) => chunks.join('').trim());
    if (record.purpose === 'SPF') return texts.some((t) => /^v=spf1\s/i.test(t) && /\binclude:amazonses\.com\b/i.test(t));
    return texts.some((t) => /^v=DMARC1\s*;/i.test(t));
  } catch {
    return false;
  }
}

/** The records of a domain with what DNS holds now; the domain is verified when all are there. */
export async function checkDomain(resolver: DnsResolver, domain: string): Promise<{ records: DnsRecord[]; verified: boolean }> {
  const records = await Promise.all(recordsFor(domain).map(async (r) => ({ ...r, found: await holds(resolver, r) })));
  return { records, verified: records.every((r) => r.found) };
}
