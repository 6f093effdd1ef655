import { Stack, Text } from '@mantine/core';

/**
 * What a stored message may use when shown: inline styles and inline (data:) images only. No
 * script, and nothing fetched from elsewhere — a remote image would tell the sender that the
 * message was "opened" (and from which address) when staff only looked at the log.
 */
export const MESSAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; form-action 'none'; base-uri 'none'";
/**
 * The same for a preview of a message not sent yet (a survey's Preview): its images are the
 * client's own logo from Survey Admin, loaded as the recipient's mail client would load it.
 */
const PREVIEW_CSP = MESSAGE_CSP.replace('img-src data:', 'img-src https: data:');

/**
 * The frame's sandbox: no scripts, forms or same-origin access, and no navigation of the frame or
 * the console. Only popups: a link opens in a new tab (`messageDocument` makes every link do so),
 * which leaves the sandbox, so the page it opens works as it would from a mail client. Without
 * them a click loaded the link inside the frame, where most sites refuse to be framed
 * (frame-ancestors) and the message was replaced by an error page.
 */
export const MESSAGE_SANDBOX = 'allow-popups allow-popups-to-escape-sandbox';

/** Links a reader may follow from a message; any other (javascript:, data:, relative) is made inert. */
const FOLLOWABLE = /^(https?:|mailto:)/i;

/**
 * The `srcdoc` of the frame a rendered e-mail is shown in. The policy comes first, before any of
 * the message's own markup is parsed, so nothing the message says can load before it applies (a
 * second policy in the message could only narrow it further). Every link opens in a new tab
 * without the console as its opener; one that could not work there loses its address, and long
 * words and links wrap at the frame's width.
 */
export function messageDocument(html: string, options: { remoteImages?: boolean } = {}): string {
  // A parsed document is inert: nothing in it loads or runs.
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const link of doc.querySelectorAll('a, area')) {
    const href = link.getAttribute('href') ?? '';
    if (FOLLOWABLE.test(href.trim())) {
      link.setAttribute('target', '_blank');
      link.setAttribute('rel', 'noopener noreferrer');
    } else {
      link.removeAttribute('href');
      link.removeAttribute('target');
    }
  }
  const head = `<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${options.remoteImages ? PREVIEW_CSP : MESSAGE_CSP}"><meta name="referrer" content="no-referrer"><base target="_blank"><style>body{overflow-wrap:anywhere}</style>`;
  return `<!doctype html><html><head>${head}${doc.head.innerHTML}</head><body>${doc.body.innerHTML}</body></html>`;
}

/**
 * A rendered e-mail as its recipient would see it (Tracking Logs' detail, a survey's Preview), in
 * a frame that can run nothing and load nothing from elsewhere; its links open in a new tab.
 */
export function MessageFrame({
  title,
  html,
  height,
  remoteImages = false,
}: {
  title: string;
  html: string;
  height: number;
  /** A preview of a message not sent yet: its logo loads (never in a log of messages sent). */
  remoteImages?: boolean;
}) {
  return (
    <Stack gap={4}>
      <iframe
        title={title}
        sandbox={MESSAGE_SANDBOX}
        srcDoc={messageDocument(html, { remoteImages })}
        referrerPolicy="no-referrer"
        style={{ width: '100%', height, border: '1px solid var(--mantine-color-gray-3)', borderRadius: 4, background: 'white' }}
      />
      <Text size="xs" c="dimmed">
        Links in the message open in a new tab.
      </Text>
    </Stack>
  );
}
