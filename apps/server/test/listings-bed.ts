import { randomBytes } from 'node:crypto';
import type { Db } from '../src/db/client.ts';
import { clients, locations } from '../src/db/schema/index.ts';
import type { FakeBusiness } from './listings-fakes.ts';

/** One location of a test client, and what the fakes say of it. */
export type BedLocation = { id: string; name: string; business: FakeBusiness };

const WEEK = {
  mon: { open: '08:00', close: '17:00' },
  tue: { open: '08:00', close: '17:00' },
  wed: { open: '08:00', close: '17:00' },
  thu: { open: '08:00', close: '17:00' },
  fri: { open: '08:00', close: '17:00' },
  sat: null,
  sun: null,
};

/**
 * A client with `count` active locations (name "<prefix> <n>", a Street address, a phone and a
 * website), written straight to the database: the scan reads them as the Locations screen made them.
 */
export async function listingClient(db: Db, prefix: string, count: number): Promise<{ clientId: number; locations: BedLocation[] }> {
  const [client] = await db
    .insert(clients)
    .values({ name: `${prefix} ${randomBytes(3).toString('hex')}`, timezone: 'America/Denver' })
    .returning({ id: clients.id });
  if (!client) throw new Error('no client');
  const made: BedLocation[] = [];
  const rows = Array.from({ length: count }, (_, i) => {
    const id = randomBytes(12).toString('hex');
    const name = `${prefix} Heating & Air ${i + 1}`;
    const number = 100 + i;
    const phone = `+1303555${String(1000 + i).padStart(4, '0')}`;
    made.push({
      id,
      name,
      business: {
        name: `${prefix} Heating and Air ${i + 1}`,
        address: `${number} N Main St Ste 4, Lakewood, CO 80228`,
        phone: `(303) 555-${String(1000 + i).padStart(4, '0')}`,
        website: `https://www.loc${i}.example.com/`,
        hours: WEEK,
      },
    });
    return {
      id,
      clientId: client.id,
      locationname: name,
      address1: `${number} North Main Street`,
      address2: 'Suite 4',
      city: 'Lakewood',
      state: 'CO',
      postalCode: '80228',
      phone,
      website: `https://loc${i}.example.com`,
      timezone: 'America/Denver',
      hours: WEEK,
    };
  });
  for (let i = 0; i < rows.length; i += 500) await db.insert(locations).values(rows.slice(i, i + 500));
  return { clientId: client.id, locations: made };
}
