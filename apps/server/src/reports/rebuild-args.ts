import { isoDate } from '@admin/shared';

export type RebuildArgs = { from: string; to: string; clientId: number | null };

/**
 * `npm run reports:rebuild -- --from 2026-01-01 --to 2026-03-31 [--client 3]`: the arguments, or
 * the message saying what is wrong with them (each option named as typed).
 */
export function parseRebuildArgs(argv: readonly string[]): RebuildArgs | { error: string } {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const option = argv[i] ?? '';
    const [name, inline] = option.split('=', 2);
    if (name !== '--from' && name !== '--to' && name !== '--client')
      return { error: `Unknown option ${option}: use --from, --to and --client.` };
    const value = inline ?? argv[++i];
    if (value === undefined || value.startsWith('--')) return { error: `The ${name} option needs a value.` };
    values.set(name, value);
  }
  const from = values.get('--from');
  const to = values.get('--to');
  if (!from || !isoDate.safeParse(from).success) return { error: 'The --from option is required: a date as YYYY-MM-DD.' };
  if (!to || !isoDate.safeParse(to).success) return { error: 'The --to option is required: a date as YYYY-MM-DD.' };
  if (to < from) return { error: 'The --to date must be on or after the --from date.' };
  const client = values.get('--client');
  if (client !== undefined && !/^[1-9]\d{0,9}$/.test(client))
    return { error: 'The --client option must be a client id (a positive whole number).' };
  const clientId = client === undefined ? null : Number(client);
  if (clientId !== null && clientId > 2_147_483_647) return { error: 'The --client option must be a client id (a positive whole number).' };
  return { from, to, clientId };
}
