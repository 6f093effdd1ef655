import { testConfig } from '../src/config.ts';
import type { Db } from '../src/db/client.ts';
import { createMessenger, type Messenger } from '../src/messaging/send.ts';
import type { Email } from '../src/messaging/transports.ts';

/**
 * A messenger whose e-mail transport keeps what it is given (headers too, which Tracking Logs do
 * not store), for tests of what an alert e-mail carries to the provider.
 */
export function capturingMessenger(db: Db, now: () => Date): { messenger: Messenger; sent: Email[] } {
  const sent: Email[] = [];
  const messenger = createMessenger(db, testConfig().messaging, {
    now,
    email: {
      name: 'capturing',
      send: async (email) => {
        sent.push(email);
        return { providerMessageId: 'm1', detail: 'ok' };
      },
      close: () => undefined,
    },
  });
  return { messenger, sent };
}
