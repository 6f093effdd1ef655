/**
 * What a stored message may use when shown: inline styles and inline (data:) images only. No
 * script, and nothing fetched from elsewhere — a remote image would tell the sender that the
 * message was "opened" (and from which address) when staff only looked at the log.
 */
export const MESSAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; form-action 'none'; base-uri 'none'";

/**
 * The `srcdoc` of the frame a rendered e-mail is shown in: the policy comes first, before any of
 * the message's own markup is parsed, so nothing the message says can load before it applies
 * (a second policy in the message could only narrow it further).
 */
export function messageDocument(html: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${MESSAGE_CSP}"><meta name="referrer" content="no-referrer"></head><body>${html}</body></html>`;
}
