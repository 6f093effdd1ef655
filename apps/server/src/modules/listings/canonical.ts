import type { locations } from '../../db/schema/index.ts';

/** Our values of a listing's fields, as the scan compares them and the fix list shows them. */
export type Canonical = {
  name: string;
  /** One line: `address1 address2, city, state postal_code`. */
  address: string;
  phone: string;
  website: string | null;
  hours: Record<string, { open: string; close: string } | null> | null;
  country: string;
};

/** The location's record as the canonical values (Google Business Profile's, domain.md §12). */
export function canonicalOf(l: typeof locations.$inferSelect): Canonical {
  const street = [l.address1, l.address2].filter((p) => p && p.trim() !== '').join(' ');
  return {
    name: l.locationname,
    address: `${street}, ${l.city}, ${l.state} ${l.postalCode}`,
    phone: l.phone,
    website: l.website,
    hours: l.hours,
    country: l.country,
  };
}
