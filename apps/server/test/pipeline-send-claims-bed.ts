import { testConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { users } from '../src/db/schema/index.ts';
import { createMessenger, type Messenger } from '../src/messaging/send.ts';
import { createSession } from '../src/modules/identity/repository.ts';
import type { Clock } from '../src/pipeline/types.ts';
import { bearer } from './helpers.ts';

/** How long the send engine's and the queue's claims last (pipeline/send.ts, pipeline/queue.ts). */
export const LEASE_MS = 5 * 60_000;
export const MINUTE = 60_000;

/** Work held on a gate the test opens: `reached` once the work is waiting on it. */
export type Gate = { reached: Promise<void>; enter(): void; opened: Promise<void>; open(): void };

export function gate(): Gate {
  let enter: () => void = () => undefined;
  let open: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => {
    enter = resolve;
  });
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { reached, enter: () => enter(), opened, open: () => open() };
}

/** A messenger whose e-mail transport holds every message until the gate opens (a slow provider). */
export function heldMessenger(db: Database['db'], clock: Clock, held: Gate): Messenger {
  let n = 0;
  return createMessenger(db, testConfig().messaging, {
    now: () => clock.now(),
    email: {
      name: 'held',
      send: async () => {
        held.enter();
        await held.opened;
        n++;
        return { providerMessageId: `held-${n}`, detail: 'accepted' };
      },
      close: () => undefined,
    },
  });
}

/** Request headers of a signed-in super-administrator of a world that has no demo accounts. */
export async function adminHeaders(db: Database['db'], tag: string): Promise<Record<string, string>> {
  const [user] = await db
    .insert(users)
    .values({ name: 'Claims Admin', email: `claims-${tag}@admin.test`, isSuperadmin: 1 })
    .returning({ id: users.id });
  const { token } = await createSession(db, user?.id ?? 0, '127.0.0.1', testConfig().session);
  return bearer(token);
}
