import type { Email } from './transports.ts';

/** The From of an e-mail: the configured one, or the client's name on its own or the platform's address. */
export function senderOf(configured: string, sender: { name: string; address: string | null } | null): Email['from'] {
  if (!sender) return configured;
  const platformAddress = /<([^<>]+)>\s*$/.exec(configured)?.[1] ?? configured.trim();
  return { name: sender.name, address: sender.address ?? platformAddress };
}

/** A From as the screens show it: `Name <address>`, or the address alone. */
export function displayFrom(from: Email['from']): { name: string | null; address: string } {
  if (typeof from !== 'string') return from;
  const named = /^\s*"?([^"<>]*?)"?\s*<([^<>]+)>\s*$/.exec(from);
  return named ? { name: named[1] || null, address: named[2] ?? '' } : { name: null, address: from.trim() };
}
