import { CLIENT_CHANNEL } from '@admin/shared/constants';

/** What a tab tells the others when its user switches client: the server's current client is now this one. */
export type ClientSwitchMessage = { userId: number; clientId: number; clientName: string };

function isSwitchMessage(data: unknown): data is ClientSwitchMessage {
  if (typeof data !== 'object' || data === null) return false;
  const m = data as Record<string, unknown>;
  return typeof m.userId === 'number' && typeof m.clientId === 'number' && typeof m.clientName === 'string';
}

// One channel per tab: a BroadcastChannel does not deliver a message to the object that posted it,
// so a tab never hears its own switch.
let channel: BroadcastChannel | null = null;
function channelOf(): BroadcastChannel | null {
  if (typeof BroadcastChannel === 'undefined') return null;
  channel ??= new BroadcastChannel(CLIENT_CHANNEL);
  return channel;
}

/**
 * Tells the other tabs of this browser that the user's current client changed. The session itself
 * stays per tab (session storage, docs/overview.md), but the server keeps one current client per
 * user, so every other tab must learn that its own is no longer the server's (issue 19, item 1).
 */
export function announceSwitch(message: ClientSwitchMessage): void {
  channelOf()?.postMessage(message);
}

/** Calls `listener` for each switch another tab announces; returns the unsubscribe. */
export function onSwitchElsewhere(listener: (message: ClientSwitchMessage) => void): () => void {
  const ch = channelOf();
  if (!ch) return () => undefined;
  const handle = (event: MessageEvent<unknown>) => {
    if (isSwitchMessage(event.data)) listener(event.data);
  };
  ch.addEventListener('message', handle);
  return () => ch.removeEventListener('message', handle);
}
