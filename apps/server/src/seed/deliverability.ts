import type { Db } from '../db/client.ts';
import { emitDemoSesEvents } from '../deliverability/demo-events.ts';

/**
 * The demo's deliverability story (docs/decisions/062-demo-deliverability.md): every e-mail the
 * seed sent through the outbox gets the SES events a real send would have, fed through the real
 * ingest, so SES Logs, SES Bounce and Tracking Logs agree on a fresh `npm start`. Last in the seed,
 * once every demo e-mail exists; events later than `anchor` have not happened yet and are left out.
 */
export async function seedDeliverability(db: Db, anchor: Date): Promise<{ messages: number; events: number }> {
  return emitDemoSesEvents(db, anchor);
}
