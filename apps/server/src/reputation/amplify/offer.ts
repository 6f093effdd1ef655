import { reviewSiteLabel } from '@admin/shared';

/** What deciding the offered review sites needs of an invitation (apps/server/src/public/repository.ts `Invitation`). */
export type OfferInput = {
  reviewLinks: Record<string, string>;
  reviewSites: readonly string[];
  /** The lowest key score offered review sites in the survey's threshold mode; null: every respondent. */
  reviewThreshold: number | null;
};

export type OfferedSite = { site: string; label: string; url: string };

/**
 * The one place that decides which review sites a respondent is offered (the thank-you page shows
 * them, `inviteToReview` makes an amplification of each): the location's stored links (web
 * addresses only), in the survey's chosen order when it chose sites; in threshold mode (review
 * gating, docs/decisions/037-test-responses-and-review-gating.md) only at or above its key score.
 */
export function offeredSites(invitation: OfferInput, keyScore: number | null): OfferedSite[] {
  const gate = invitation.reviewThreshold;
  if (gate !== null && (keyScore === null || keyScore < gate)) return [];
  const links = invitation.reviewLinks;
  const codes = invitation.reviewSites.length > 0 ? invitation.reviewSites : Object.keys(links);
  const seen = new Set<string>();
  const offered: OfferedSite[] = [];
  for (const site of codes) {
    const url = links[site];
    if (seen.has(site) || typeof url !== 'string' || !/^https?:\/\//i.test(url)) continue;
    seen.add(site);
    offered.push({ site, label: reviewSiteLabel(site), url });
  }
  return offered;
}
