import { html, page } from '../../public/html.ts';

const PLATFORM = { color: '#1c5fd4', logoUrl: null, name: 'Customer Feedback' };

/** An unknown, malformed or retired review link: says so and nothing else (no client, no person). */
export function reviewLinkNotFoundPage(): string {
  return page(
    'Review link not found',
    PLATFORM,
    html`<h1>We could not find this review link</h1><p>The link may be incomplete or no longer in use. Please open it again from the page or message where you found it.</p>`,
  );
}
