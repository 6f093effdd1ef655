/**
 * What each SES bounce type/subtype and complaint feedback type means, in a sentence a staff member
 * can read to a customer: SES Bounce's Description column (domain.md §25). Modelled on the staff
 * bounce screen domain.md A6 describes (one description per type and subtype, auto-replies named
 * as not counted); written here in our own words from the SES notification contents A6 cites.
 */
const BOUNCES: Record<string, string> = {
  'Undetermined/Undetermined':
    'The receiving server bounced the message without saying why; the bounce e-mail sent to the return path may tell more.',
  'Permanent/General':
    'Hard bounce with no reason given. Do not send to this address again: repeated hard bounces harm our sending reputation.',
  'Permanent/NoEmail':
    'The address does not exist at the receiving server. Do not send to it again: repeated hard bounces harm our sending reputation.',
  'Permanent/Suppressed': 'SES refused to send: the address is on the SES global suppression list after recent hard bounces elsewhere.',
  'Permanent/OnAccountSuppressionList':
    'SES refused to send: the address is on our account-level suppression list. This does not count toward the bounce rate.',
  'Transient/General':
    'Soft bounce with no reason given; a later message may arrive. Often an automatic reply (out of office), which SES does not count in the bounce rate.',
  'Transient/MailboxFull': 'The mailbox is full; a later message may arrive once the recipient makes room.',
  'Transient/MessageTooLarge': 'The message was larger than the receiving server accepts; a smaller one may arrive.',
  'Transient/ContentRejected': 'The receiving server refused the message for its content; different content may arrive.',
  'Transient/AttachmentRejected': 'The receiving server refused an attachment (its type or size); the message without it may arrive.',
};

const COMPLAINTS: Record<string, string> = {
  abuse: 'The recipient reported the message as unsolicited or abusive.',
  'auth-failure': 'The receiving server reported an e-mail authentication failure.',
  fraud: 'The recipient reported the message as fraud or phishing.',
  'not-spam': 'The reporter says the message is not spam (correcting an earlier report).',
  other: 'A complaint of a kind not otherwise named.',
  virus: 'The receiving server reported a virus in the message.',
};

/**
 * The description of a bounce (`Permanent`/`NoEmail`), or of a complaint's feedback type when the
 * address has no bounce; null when neither is known.
 */
export function bounceDescription(type: string | null, subtype: string | null, feedbackType: string | null = null): string | null {
  if (type !== null) {
    const key = `${type}/${subtype ?? 'General'}`;
    return (Object.hasOwn(BOUNCES, key) ? BOUNCES[key] : undefined) ?? null;
  }
  if (feedbackType !== null) return (Object.hasOwn(COMPLAINTS, feedbackType) ? COMPLAINTS[feedbackType] : undefined) ?? null;
  return null;
}
