import { eq, sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import {
  clients,
  clientUsers,
  locations,
  personnel,
  personnelLocations,
  products,
  referralSources,
  teams,
  users,
} from '../db/schema/index.ts';
import { hashPassword } from '../lib/crypto.ts';
import { seedTestimonials } from '../modules/testimonials/demo.ts';
import { secretBox } from '../pipeline/ingest/secret.ts';
import { seedAlertRules } from './alert-rules.ts';
import { seedDeliverability } from './deliverability.ts';
import { AREAS, CATALOG, DEMO_CLIENTS, FIRST, LAST, STREETS, slug, TITLES } from './demo-names.ts';
import { seedFeeds } from './feeds.ts';
import { seedHistory } from './history.ts';
import { seedListings } from './listings.ts';
import { seededRandom } from './random.ts';
import { seedReviewAlertRules } from './review-alerts.ts';
import { demoReviewLinks } from './review-links.ts';
import { seedReviews } from './reviews.ts';
import { seedSurveys } from './surveys.ts';
import { generateSystemLogs } from './system-logs.ts';

/**
 * Loads the demo data into an empty database, in one transaction (all or nothing).
 * Deterministic: the same rows on every machine. Later areas add their own demo data here.
 * `anchor` is "now" for the demo's month of history: the tests seed once per run at one anchor
 * (docs/decisions/064-demo-seeded-once-per-test-run.md); the server seeds at start-up time.
 */
export async function seedDemoData(
  db: Db,
  config: Pick<Config, 'demoPassword' | 'retiredMasterEmail'> &
    Partial<Pick<Config, 'messaging' | 'secretKey' | 'database' | 'passwordHashCost'>>,
  anchor: Date = new Date(),
): Promise<void> {
  const rnd = seededRandom(20261122);
  const passwordHash = await hashPassword(config.demoPassword, config.passwordHashCost);
  await db.transaction(async (tx) => {
    const clientIds: number[] = [];
    for (const c of DEMO_CLIENTS) {
      const [client] = await tx
        .insert(clients)
        .values({
          name: c.name,
          industry: c.industry,
          city: c.city,
          state: c.state,
          country: 'US',
          timezone: c.timezone,
          website: `https://www.${slug(c.name)}.example.com`,
          phone: `+1${rnd.int(201, 989)}555${String(rnd.int(0, 9999)).padStart(4, '0')}`,
          modules: ['surveys', 'reputation'],
          defaultReviewSite: 'google',
        })
        .returning({ id: clients.id });
      if (!client) throw new Error('client insert returned nothing');
      const [team] = await tx.insert(teams).values({ clientId: client.id, name: c.name }).returning({ id: teams.id });
      if (!team) throw new Error('team insert returned nothing');
      await tx.update(clients).set({ rootTeamId: team.id }).where(eq(clients.id, client.id));
      clientIds.push(client.id);
    }

    // The console's own staff accounts (README, demo accounts).
    const firstClient = clientIds[0] ?? null;
    const [ada, sam] = await tx
      .insert(users)
      .values([
        { name: 'Ada Admin', email: 'admin@example.com', passwordHash, isSuperadmin: 1, currentClientId: firstClient },
        { name: 'Sam Staff', email: 'staff@example.com', passwordHash, isSuperadmin: 0, currentClientId: firstClient },
        { name: 'Master Account', email: config.retiredMasterEmail, passwordHash, isSuperadmin: 1, currentClientId: firstClient },
      ])
      .returning({ id: users.id });
    // Account coordinators: Ada and Sam share the clients; every fifth client has none yet.
    for (const [index, clientId] of clientIds.entries()) {
      const coordinator = index % 5 === 4 ? null : (index % 2 === 0 ? ada : sam)?.id;
      if (coordinator) await tx.update(clients).set({ accountCoordinatorId: coordinator }).where(eq(clients.id, clientId));
    }

    // Each client's own portal users; they have no password and cannot sign in here.
    for (const [index, clientId] of clientIds.entries()) {
      const count = rnd.int(3, 7);
      const domain = `${slug(DEMO_CLIENTS[index]?.name ?? 'client')}.example.com`;
      const rows = Array.from({ length: count }, (_, i) => {
        const first = rnd.pick(FIRST);
        const last = rnd.pick(LAST);
        return { name: `${first} ${last}`, email: `${first}.${last}.${i}@${domain}`.toLowerCase(), isSuperadmin: 0 };
      });
      const inserted = await tx.insert(users).values(rows).returning({ id: users.id });
      await tx
        .insert(clientUsers)
        .values(inserted.map((u, i) => ({ clientId, userId: u.id, role: i === 0 ? 'owner' : i === 1 ? 'manager' : 'staff' })));
    }

    // Locations (the API endpoints): a few per client, in and around the client's city.
    const hex = () => Array.from({ length: 24 }, () => '0123456789abcdef'[rnd.int(0, 15)]).join('');
    for (const [index, clientId] of clientIds.entries()) {
      const c = DEMO_CLIENTS[index];
      if (!c) continue;
      const [team] = await tx.select({ id: clients.rootTeamId }).from(clients).where(eq(clients.id, clientId));
      const count = rnd.int(3, 8);
      const rows = Array.from({ length: count }, (_, i) => ({
        id: hex(),
        clientId,
        teamId: team?.id ?? null,
        locationname: `${c.name} ${AREAS[i % AREAS.length]}`,
        externalCode: `${slug(c.name).slice(0, 3).toUpperCase()}-${String(100 + i)}`,
        address1: `${rnd.int(10, 9999)} ${rnd.pick(STREETS)}`,
        city: c.city,
        state: c.state,
        postalCode: String(rnd.int(10000, 99999)),
        country: 'US',
        phone: `+1${rnd.int(201, 989)}555${String(rnd.int(0, 9999)).padStart(4, '0')}`,
        website: `https://www.${slug(c.name)}.example.com/${slug(AREAS[i % AREAS.length] ?? 'x')}`,
        timezone: c.timezone,
        googlePlaceId: i % 3 === 2 ? null : `ChIJ${hex().slice(0, 20)}`,
        status: i === count - 1 && index % 4 === 0 ? 'paused' : 'active',
      }));
      await tx.insert(locations).values(rows.map((r) => ({ ...r, reviewLinks: demoReviewLinks(r) })));

      // Personnel: technicians, advisors … with one or two locations each. Every third client
      // also gets a typical feed duplicate (same person, a nickname and a second code) for merging.
      const people: (typeof personnel.$inferInsert)[] = Array.from({ length: rnd.int(15, 25) }, (_, i) => {
        const first = rnd.pick(FIRST);
        const last = rnd.pick(LAST);
        return {
          clientId,
          firstName: first,
          lastName: last,
          title: rnd.pick(TITLES),
          employeeCode: `E${String(index * 100 + i + 1).padStart(4, '0')}`,
          email: `${first}.${last}.${i}@${slug(c.name)}.example.com`.toLowerCase(),
          phone: `+1${rnd.int(201, 989)}555${String(rnd.int(0, 9999)).padStart(4, '0')}`,
        };
      });
      const [first, second] = people;
      if (first && second && index % 3 === 0) {
        // A nickname under a second code with the same email, and a re-hire: same name, new
        // code, no email, the phone written another way.
        people.push(
          { ...first, firstName: `${first.firstName.slice(0, 3)}.`, employeeCode: `E${String(index * 100 + 99)}`, email: first.email },
          {
            ...second,
            employeeCode: `E${String(index * 100 + 98)}`,
            email: null,
            phone: second.phone?.replace(/^\+1(\d{3})(\d{3})(\d{4})$/, '($1) $2-$3'),
          },
        );
      }
      const inserted = await tx.insert(personnel).values(people).returning({ id: personnel.id });
      const links = inserted.flatMap((p, i) => {
        const a = rows[i % rows.length];
        const b = rows[(i + 1) % rows.length];
        return [a, i % 4 === 0 ? b : undefined].filter((l) => l !== undefined).map((l) => ({ personnelId: p.id, locationId: l.id }));
      });
      await tx.insert(personnelLocations).values(links);
    }

    // Products and services, by industry.
    for (const [index, clientId] of clientIds.entries()) {
      const items = CATALOG[DEMO_CLIENTS[index]?.industry ?? ''] ?? [];
      if (items.length === 0) continue;
      await tx.insert(products).values(items.map(([name, code, category]) => ({ clientId, name, code, category })));
    }

    // Referral sources: global defaults for every client, plus a few of the clients' own.
    await tx.insert(referralSources).values([
      { clientId: null, name: 'Google search', code: 'GOOGLE', type: 'online' },
      { clientId: null, name: 'Referral from a friend', code: 'FRIEND', type: 'word_of_mouth' },
      { clientId: null, name: 'Returning customer', code: 'REPEAT', type: 'repeat' },
      { clientId: null, name: 'Walk-in', code: 'WALKIN', type: 'walk_in' },
      { clientId: null, name: 'Social media ad', code: 'SOCIAL-AD', type: 'advertising' },
    ]);
    for (const clientId of clientIds) {
      await tx.insert(referralSources).values([
        { clientId, name: 'Yard sign', code: 'YARD-SIGN', type: 'advertising' },
        { clientId, name: 'Partner referral', code: 'PARTNER', type: 'professional_referral' },
      ]);
    }

    // Surveys, a month of invitations and their answers, made by the product's own code paths.
    const publicBaseUrl = config.messaging?.publicBaseUrl ?? 'http://localhost:3000';
    await seedSurveys(tx, { publicBaseUrl, anchor });

    // Data feeds and their runs over the same month, made by the pipeline: ingest, rules, send engine.
    // The SFTP password is encrypted with the key the server uses (SECRET_KEY, or the embedded database's key file).
    const secrets = secretBox({ secretKey: config.secretKey ?? null, database: config.database ?? { kind: 'pglite', dataDir: null } });
    await seedFeeds(tx, { publicBaseUrl, anchor, secrets });
    // Survey alert rules and their recipients' phones, once the suppressions and opt-outs above exist (alert-rules.ts).
    await seedAlertRules(tx, anchor);
    // Review alert rules, before any review is ingested, so negative demo reviews fire them (review-alerts.ts).
    await seedReviewAlertRules(tx, anchor);
    // Promoters' comments given with consent made testimonials, in every state (the make-testimonial job's function).
    await seedTestimonials(tx, anchor, firstClient);
    // Every active client's locations scanned from the demo directory by the product's scan (listings.ts).
    await seedListings(tx, anchor);

    // A few months of application and audit log, so System Logs has pages to walk.
    const staff = await tx.select({ id: users.id }).from(users).where(eq(users.isSuperadmin, 1));
    const logsAnchor = new Date(anchor);
    logsAnchor.setUTCMinutes(0, 0, 0);
    await generateSystemLogs(tx, { count: 20_000, anchor: logsAnchor, days: 90, userIds: staff.map((u) => u.id), clientIds });
    // Public reviews through the ingest function, last: some by the invited respondents above, some negative (reviews.ts).
    await seedReviews(tx, anchor);
    // SES's events for the demo's e-mails through the real ingest, once every demo e-mail exists (deliverability.ts).
    await seedDeliverability(tx, anchor);
    // The year before the last month, last: it reads the last month's NPS, and no step above sees its rows (history.ts).
    await seedHistory(tx, { publicBaseUrl, anchor });
  });
  // Statistics for the tables just filled: the embedded database has no autovacuum, and a list's
  // "about N (estimated)" is the planner's estimate (apps/server/src/kit/totals.ts), which without
  // statistics is a guess (about 10,000 for System Logs' 20,000 rows) until a read refreshes them.
  await db.execute(sql`analyze`);
}
