import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { amplifications, emailOptOuts, smsOptOuts } from '../../db/schema/index.ts';
import { type OfferedSite, type OfferInput, offeredSites } from './offer.ts';

/** What inviting a respondent to review needs of the answered invitation (public/repository.ts `Invitation`). */
export type Invitee = OfferInput & {
  clientId: number;
  locationId: string | null;
  personnelId: number | null;
  firstName: string;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  channel: string;
  test: boolean;
};

/** A `/r/{token}` link: 144 random bits, base64url, like the survey links (docs/decisions/023). */
export const newReviewToken = (): string => randomBytes(18).toString('base64url');

const OPTED_OUT_REASON = 'The customer opted out of messages from this client';

/**
 * Makes one amplification (`invited`) per review site the thank-you page offers this respondent, in
 * the transaction that records the response (public/repository.ts `recordResponse`), so a response
 * never exists without its invitations. A respondent whose address or phone opted out is recorded
 * `opted_out` (no reminder goes to them). A Send test response gets none: it is left out of every
 * figure (docs/decisions/037). Idempotent on (response, site).
 */
export async function inviteToReview(tx: Db, invitee: Invitee, responseId: number, keyScore: number | null, at: Date): Promise<void> {
  if (invitee.test || invitee.locationId === null) return;
  const sites = offeredSites(invitee, keyScore);
  if (sites.length === 0) return;
  const optedOut = await hasOptedOut(tx, invitee);
  const customerName = [invitee.firstName, invitee.lastName ?? ''].join(' ').trim();
  await tx
    .insert(amplifications)
    .values(
      sites.map((s) => ({
        clientId: invitee.clientId,
        locationId: invitee.locationId ?? '',
        personnelId: invitee.personnelId,
        responseId,
        site: s.site,
        channel: invitee.channel,
        token: newReviewToken(),
        customerName,
        surveyScore: keyScore,
        invitedAt: at,
        status: optedOut ? 'opted_out' : 'invited',
        statusReason: optedOut ? OPTED_OUT_REASON : null,
        createdAt: at,
        updatedAt: at,
      })),
    )
    .onConflictDoNothing({ target: [amplifications.responseId, amplifications.site] });
}

/** Opted out of this client's messages (or of every client's), by e-mail or by phone. */
async function hasOptedOut(tx: Db, invitee: Invitee): Promise<boolean> {
  const email = invitee.email?.trim().toLowerCase();
  const phone = invitee.phone?.trim();
  const ofClient = (column: typeof emailOptOuts.clientId | typeof smsOptOuts.clientId) =>
    sql`(${column} is null or ${column} = ${invitee.clientId})`;
  if (email) {
    const [row] = await tx
      .select({ one: sql`1` })
      .from(emailOptOuts)
      .where(and(eq(emailOptOuts.email, email), ofClient(emailOptOuts.clientId)))
      .limit(1);
    if (row) return true;
  }
  if (phone) {
    const [row] = await tx
      .select({ one: sql`1` })
      .from(smsOptOuts)
      .where(and(eq(smsOptOuts.phone, phone), ofClient(smsOptOuts.clientId)))
      .limit(1);
    if (row) return true;
  }
  return false;
}

/** A review link as the thank-you page shows it. */
export type PageLink = { label: string; href: string };

/**
 * The thank-you page's review links: each offered site's `/r/{token}` of this response, in the
 * offer's order; a site whose stored link has since gone is not shown. A Send test (no
 * amplification) links straight to the stored links, so staff see what a customer would.
 */
export async function reviewLinksForPage(
  db: Db,
  invitee: Invitee,
  responseId: number | null,
  keyScore: number | null,
): Promise<PageLink[]> {
  const offered = offeredSites(invitee, keyScore);
  if (offered.length === 0) return [];
  if (invitee.test || responseId === null) return offered.map((s) => ({ label: s.label, href: s.url }));
  const rows = await db
    .select({ site: amplifications.site, token: amplifications.token })
    .from(amplifications)
    .where(
      and(
        eq(amplifications.responseId, responseId),
        inArray(
          amplifications.site,
          offered.map((s) => s.site),
        ),
      ),
    );
  const tokens = new Map(rows.map((r) => [r.site, r.token]));
  return offered
    .filter((s): s is OfferedSite => tokens.has(s.site))
    .map((s) => ({ label: s.label, href: `/r/${tokens.get(s.site) ?? ''}` }));
}
