import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createForeground, RECENT_MS } from './foreground.ts';

/** A response that closes when the test says so, on a clock the test moves. */
function setup() {
  let t = 0;
  const foreground = createForeground(() => t);
  const open = () => {
    const response = new EventEmitter();
    foreground.track(response);
    return () => response.emit('close');
  };
  return { foreground, open, advance: (ms: number) => (t += ms) };
}

describe('foreground first', () => {
  it('answers at once when no request is open', async () => {
    const { foreground } = setup();
    let done = false;
    await foreground.quiet(1_000).then(() => (done = true));
    expect(done).toBe(true);
  });

  it('waits while a recent request is open, and goes on once it is closed', async () => {
    const { foreground, open } = setup();
    const close = open();
    let done = false;
    const waiting = foreground.quiet(60_000).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toBe(false);
    close();
    await waiting;
    expect(done).toBe(true);
  });

  it('does not wait for a long-running request (an export) nor longer than asked', async () => {
    const { foreground, open, advance } = setup();
    open();
    advance(RECENT_MS + 1);
    await foreground.quiet(60_000);
    const again = setup();
    again.open();
    const started = performance.now();
    const waiting = again.foreground.quiet(50);
    // The test clock stands still: the wait ends by its bound, moved past here.
    again.advance(51);
    await waiting;
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
