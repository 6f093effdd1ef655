import { CLIENTS, LOG_ROWS, PASSWORD, PEOPLE } from './settings.ts';

// bench/api's database: the demo data plus enough rows for 50-row pages.

export async function seed(url: string): Promise<void> {
  const { openDatabase, rowsOf } = await import('../../apps/server/src/db/client.ts');
  const { seedDemoData } = await import('../../apps/server/src/seed/demo.ts');
  const { generateSystemLogs } = await import('../../apps/server/src/seed/system-logs.ts');
  const { sql } = await import('drizzle-orm');
  const t0 = performance.now();
  const database = await openDatabase({ kind: 'pg', url });
  await database.migrate();
  const { db } = database;
  await seedDemoData(db, { demoPassword: PASSWORD, retiredMasterEmail: 'master@example.com' });
  // Clients enough for 50-row pages of Client Manager, each with its root team like real ones.
  await db.execute(sql`
    insert into clients (name, industry, city, state, country, timezone, website, phone, modules, account_coordinator_id, status)
    select 'Bench Client ' || lpad(i::text, 6, '0'),
      (array['automotive', 'dental', 'home_services', 'legal', 'retail', 'hospitality'])[1 + i % 6],
      'Springfield', 'IL', 'US', 'America/Chicago', 'https://bench-' || i || '.example.com',
      '+1217555' || lpad((i % 10000)::text, 4, '0'), array['surveys', 'reputation'],
      case when i % 5 <> 0 then (select min(id) from users where is_superadmin = 1) end,
      case when i % 10 = 0 then 'paused' else 'active' end
    from generate_series(1, ${CLIENTS}::int) as g(i)`);
  await db.execute(sql`insert into teams (client_id, name) select id, name from clients where root_team_id is null`);
  await db.execute(sql`update clients c set root_team_id = t.id from teams t where t.client_id = c.id and c.root_team_id is null`);
  // Personnel of the admin's current client, each linked to one of its locations.
  await db.execute(sql`
    insert into personnel (client_id, first_name, last_name, title, employee_code, email, phone)
    select u.current_client_id,
      initcap(substr(translate(md5(i::text), '0123456789', 'ghijklmnop'), 1, 7)),
      initcap(substr(translate(md5(i::text), '0123456789', 'ghijklmnop'), 8, 9)),
      (array['Technician', 'Service advisor', 'Sales consultant', 'Office manager'])[1 + i % 4],
      'B' || i, 'bench' || i || '@example.com', '+1' || (2000000000 + i)::text
    from generate_series(1, ${PEOPLE}::int) as g(i), users u
    where u.email = 'admin@example.com'`);
  await db.execute(sql`
    insert into personnel_locations (personnel_id, location_id)
    select p.id, l._id from personnel p
    cross join lateral (select _id from locations l where l.client_id = p.client_id order by md5(l._id || p.id) limit 1) l
    where p.employee_code like 'B%'`);
  const [logs] = rowsOf(await db.execute(sql`select count(*)::int as n from system_logs`));
  const staff = rowsOf(await db.execute(sql`select id from users where is_superadmin = 1`));
  const clientIds = rowsOf(await db.execute(sql`select id from clients order by id limit 12`));
  await generateSystemLogs(db, {
    count: Math.max(0, LOG_ROWS - Number(logs?.n ?? 0)),
    anchor: new Date(),
    days: 365,
    userIds: staff.map((u) => Number(u.id)),
    clientIds: clientIds.map((c) => Number(c.id)),
  });
  // Fresh statistics, as autovacuum would leave them on a server that has been running.
  await db.execute(sql`analyze`);
  await database.close();
  console.log(
    `seeded ${CLIENTS.toLocaleString()} clients, ${PEOPLE.toLocaleString()} personnel, ${LOG_ROWS.toLocaleString()} log rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}
