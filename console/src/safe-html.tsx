/**
 * The only way HTML reaches the page: Markdown rendered by marked, then sanitised by DOMPurify into a TrustedHTML
 * (the page's CSP requires Trusted Types from the `dompurify` policy for every HTML sink). Scripts, event handlers,
 * `javascript:` URLs, SVG and MathML, forms and frames are removed; links open without a referrer or opener.
 */
import DOMPurify, { type Config } from 'dompurify';
import { marked } from 'marked';
import { useEffect, useRef } from 'preact/hooks';

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('rel', 'noopener noreferrer nofollow');
    node.setAttribute('target', '_blank');
  }
});

/** What the DOM takes for innerHTML under `require-trusted-types-for 'script'` (TS's DOM lib has no Trusted Types yet). */
type TrustedHTML = import('trusted-types/lib/index.js').TrustedHTML;

const OPTIONS: Config & { RETURN_TRUSTED_TYPE: true } = {
  RETURN_TRUSTED_TYPE: true,
  // HTML only: no SVG or MathML (their own ways to carry script and styles are not worth allowing for page text).
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'frame', 'object', 'embed', 'link', 'meta', 'base'],
  FORBID_ATTR: ['style'],
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#|\/(?!\/))/i,
};

export function sanitizedMarkdown(markdown: string): TrustedHTML {
  const html = marked.parse(markdown, { async: false, gfm: true }) as string;
  return DOMPurify.sanitize(html, OPTIONS);
}

export function Markdown({ source, label }: { source: string; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.replaceChildren();
    (el as unknown as { innerHTML: TrustedHTML }).innerHTML = sanitizedMarkdown(source);
  }, [source]);
  return <div class="markdown" ref={ref} aria-label={label} role="document" />;
}
