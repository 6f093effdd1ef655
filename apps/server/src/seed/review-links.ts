/**
 * The demo locations' review links (Locations' Review links), so that the demo's thank-you pages
 * offer review sites and its responses make review invitations (reputation/amplify/invite.ts):
 * Google's write-a-review link where the location has a place id, Facebook and Yelp pages from
 * its name. Derived from the row only (no random draw), so the rest of the seed stays as it was.
 */
export function demoReviewLinks(location: { locationname: string; googlePlaceId: string | null }): Record<string, string> {
  const slug = location.locationname
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  const links: Record<string, string> = {};
  if (location.googlePlaceId) links.google = `https://search.google.com/local/writereview?placeid=${location.googlePlaceId}`;
  links.facebook = `https://www.facebook.com/${slug}/reviews`;
  links.yelp = `https://www.yelp.com/writeareview/biz/${slug}`;
  return links;
}
