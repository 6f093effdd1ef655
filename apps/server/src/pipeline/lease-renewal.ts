/**
 * Keeps a lease alive while the work it covers runs (docs/decisions/075-send-claims.md): the send
 * engine's claimed batch (`claimed_until`, pipeline/send.ts) and the queue's running jobs
 * (`locked_until`, pipeline/queue.ts) are each held 5 minutes; a batch behind a slow transport or a
 * long job would otherwise be taken again by another worker while it is still being worked on.
 * `renew` runs every `everyMs` of real time (the values it writes come from the injected clock);
 * one renewal at a time, and `stop` waits for the one under way, so nothing renews after the
 * outcome is written.
 */

/** How often a lease is pushed ahead while its work runs: well inside the 5-minute lease. */
export const RENEW_EVERY_MS = 60_000;

export type LeaseRenewal = { stop(): Promise<void> };

export function keepRenewed(renew: () => Promise<unknown>, everyMs: number, onError: (err: unknown) => void): LeaseRenewal {
  let current: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (current) return;
    current = renew()
      .then(
        () => undefined,
        (err: unknown) => onError(err),
      )
      .finally(() => {
        current = null;
      });
  }, everyMs);
  // A lease alone never keeps the process running.
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await current;
    },
  };
}

/** No renewal: for work no other worker can see (the demo seed's engine runs inside its one transaction). */
export const NO_RENEWAL: LeaseRenewal = { stop: async () => undefined };
