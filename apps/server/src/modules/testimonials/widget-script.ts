/**
 * `GET /w/testimonials.js`: the `<selected-testimonials client="…" location="…">` element, a web
 * component with its own shadow root and no dependencies (decision 046; its gzip size is measured
 * in apps/server/test/testimonials-public-api.test.ts). It reads the public feed from the origin it
 * was loaded from, writes every text with textContent (never HTML), and carries no review markup
 * for search engines: these are chosen testimonials, not all reviews (pipeline.md "Testimonials").
 */
export const WIDGET_SCRIPT = `(function () {
  var script = document.currentScript;
  var origin = script && script.src ? new URL(script.src).origin : location.origin;
  var CSS = ':host{display:block;font:inherit;color:inherit}section{display:grid;gap:12px}h2{font-size:1.25em;margin:0}' +
    'ul{list-style:none;margin:0;padding:0;display:grid;gap:12px;grid-template-columns:repeat(auto-fill,minmax(240px,1fr))}' +
    'li{border:1px solid #d0d4da;border-radius:8px;padding:12px;background:#fff;color:#1a1b1e}' +
    'blockquote{margin:0 0 8px}p{margin:0}.who{font-weight:600}.score{color:#495057;font-size:.9em}.pin{font-size:.8em;color:#1864ab}';
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  class SelectedTestimonials extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) return;
      var root = this.attachShadow({ mode: 'open' });
      var style = el('style');
      style.textContent = CSS;
      var section = el('section');
      section.setAttribute('aria-label', 'Selected testimonials');
      section.appendChild(el('h2', this.getAttribute('heading') || 'Selected testimonials'));
      var status = el('p', 'Loading…');
      status.setAttribute('role', 'status');
      section.appendChild(status);
      root.append(style, section);
      var query = new URLSearchParams({ client: this.getAttribute('client') || '' });
      var loc = this.getAttribute('location');
      if (loc) query.set('location', loc);
      var limit = this.getAttribute('limit');
      if (limit) query.set('limit', limit);
      fetch(origin + '/api/public/testimonials?' + query, { credentials: 'omit' })
        .then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
        .then(function (body) {
          var items = body.data || [];
          if (items.length === 0) { status.textContent = 'No testimonials yet.'; return; }
          status.remove();
          var list = el('ul');
          items.forEach(function (t) {
            var li = el('li');
            var quote = el('blockquote');
            quote.appendChild(el('p', t.text));
            li.appendChild(quote);
            li.appendChild(el('p', t.name, 'who'));
            if (t.rating !== null && t.rating_max) li.appendChild(el('p', 'Rated ' + t.rating + ' out of ' + t.rating_max, 'score'));
            if (t.featured) li.appendChild(el('p', 'Featured', 'pin'));
            list.appendChild(li);
          });
          section.appendChild(list);
        })
        .catch(function () { status.textContent = 'Testimonials could not be loaded.'; });
    }
  }
  if (!customElements.get('selected-testimonials')) customElements.define('selected-testimonials', SelectedTestimonials);
})();
`;
