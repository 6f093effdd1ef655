/**
 * Server-rendered HTML for the public pages, with one rule: every interpolated value is escaped
 * unless it is markup this file's `html` tag already produced. No other way to build markup here.
 */
const SAFE = Symbol('safe-html');
export type Html = { readonly [SAFE]: string };

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (Array.isArray(part)) return part.map(render).join('');
  if (typeof part === 'object' && SAFE in part) return part[SAFE];
  return escapeHtml(String(part));
}

/** A template tag: `html\`<p>${name}</p>\`` escapes `name`; nested `html` results pass through. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += render(v) + (strings[i + 1] ?? '');
  });
  return { [SAFE]: out };
}

export const htmlText = (h: Html): string => h[SAFE];

/** A brand colour from Survey Admin, used only when it is a plain `#rrggbb` (it goes into CSS). */
export function brandColorOf(value: string | null): string {
  return value && /^#[0-9a-fA-F]{6}$/.test(value) ? value : '#1c5fd4';
}

/** The relative luminance of a `#rrggbb` colour (WCAG 2). */
function luminanceOf(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** Text colour with enough contrast (WCAG AA, 4.5:1) on the brand colour: white or near-black. */
export function onColorOf(hex: string): string {
  const luminance = luminanceOf(hex);
  // Contrast with white is 1.05 / (L + 0.05); with #111 it is (L + 0.05) / 0.0557.
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.0557 ? '#ffffff' : '#111111';
}

/** Whether the colour can be text on white (WCAG AA, 4.5:1): the e-mail's links take it then. */
export const readableOnWhite = (hex: string): boolean => 1.05 / (luminanceOf(hex) + 0.05) >= 4.5;

export type Brand = { color: string; logoUrl: string | null; name: string };

/**
 * The page shell: mobile first (one column, 44 px targets), visible focus, system fonts, no
 * script. Long words and links (a survey's text, a client's name) wrap at any point rather than
 * widen the page past a phone's screen; a fieldset may shrink below its longest word. The brand
 * colour is used for buttons and the selected score, with a text colour chosen for contrast;
 * where it is too light for text on white, links stay the default dark blue.
 */
export function page(title: string, brand: Brand, body: Html): string {
  const on = onColorOf(brand.color);
  const css = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f4f5f7;overflow-wrap:anywhere}
main{max-width:40rem;margin:0 auto;padding:1rem}
header{display:flex;align-items:center;gap:.75rem;padding:1rem 0}
header img{max-height:48px;max-width:160px}
.card{background:#fff;border-radius:8px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.375rem;margin:0 0 .5rem}
fieldset{border:0;margin:0 0 1.5rem;padding:0;min-width:0}
legend{font-weight:600;padding:0;margin-bottom:.5rem}
.req{color:#b00020}
.scale{display:flex;flex-wrap:wrap;gap:.375rem}
.scale label,.choice label{display:inline-flex;align-items:center;justify-content:center;min-width:44px;min-height:44px;border:1px solid #767676;border-radius:6px;padding:.25rem .5rem;cursor:pointer;background:#fff}
.choice{display:flex;flex-direction:column;gap:.375rem}
.choice label{justify-content:flex-start;gap:.5rem}
.scale input{position:absolute;opacity:0;width:1px;height:1px}
.scale input:checked+span{font-weight:700}
.scale label:has(input:checked){background:${brand.color};color:${on};border-color:${brand.color}}
.ends{display:flex;justify-content:space-between;font-size:.875rem;color:#555;margin-top:.25rem}
textarea{width:100%;min-height:7rem;font:inherit;padding:.5rem;border:1px solid #767676;border-radius:6px}
.problem{color:#b00020;font-weight:600;margin:.25rem 0}
.summary{border:2px solid #b00020;border-radius:6px;padding:.75rem;margin-bottom:1rem}
button,.button{display:inline-block;min-height:44px;padding:.625rem 1.25rem;border:0;border-radius:6px;background:${brand.color};color:${on};font:inherit;font-weight:600;cursor:pointer;text-decoration:none}
.links{display:flex;flex-direction:column;gap:.5rem;margin:1rem 0}
a{color:#0b4fbf}
:focus-visible,.scale label:has(input:focus-visible){outline:3px solid #111;outline-offset:2px;box-shadow:0 0 0 5px #fff}
.muted{color:#555;font-size:.875rem}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
`;
  return htmlText(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${title}</title>
<style>${{ [SAFE]: css }}</style>
</head>
<body>
<main>
<header>${brand.logoUrl ? html`<img src="${brand.logoUrl}" alt="${brand.name}">` : html`<strong>${brand.name}</strong>`}</header>
<div class="card">${body}</div>
</main>
</body>
</html>`);
}
