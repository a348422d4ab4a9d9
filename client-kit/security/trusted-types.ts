/**
 * The pages' one Trusted Types policy (the server's Content-Security-Policy requires Trusted Types
 * for every DOM sink and names it, server/security/browser-policy.ts). HTML reaches the page only
 * sanitised to text elements; a script URL only when it is of this site (the data worker, the
 * service worker). Where the browser has no Trusted Types (tests in happy-dom), the same checks
 * give plain strings.
 */
import DOMPurify, { type Config } from 'dompurify';
// The types DOMPurify's own declarations use (its optional dependency, @types/trusted-types).
import type { TrustedHTML, TrustedScriptURL, TrustedTypesWindow } from 'trusted-types/lib/index.js';
import { TRUSTED_TYPES_POLICY } from '../../contract/browser-policy.ts';

/** Text and its structure only: no forms, images, media, frames, SVG, MathML, styles or scripts. */
const ALLOWED_TAGS = [
  'p',
  'br',
  'strong',
  'em',
  'b',
  'i',
  'u',
  'ul',
  'ol',
  'li',
  'h2',
  'h3',
  'h4',
  'blockquote',
  'a',
  'span',
];

const HTML_CONFIG: Config = {
  ALLOWED_TAGS,
  // A link's address and nothing else: no style, class, id, event handler, data- or aria- attribute.
  ALLOWED_ATTR: ['href'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  // Web and mail links; javascript:, data:, relative and every other scheme lose their href.
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
};

/** An instance of our own, so that its hook changes no other DOMPurify user. */
const purify = DOMPurify(window);
purify.addHook('afterSanitizeAttributes', (node) => {
  // Links open in a new tab that gets no handle on this page and no referrer.
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

/** HTML of the server or of a chat, reduced to the allow-list above. */
export function sanitizeHtml(html: string): string {
  return purify.sanitize(html, HTML_CONFIG);
}

/** The worker scripts of this site; anything else is refused. */
function sameOriginScriptUrl(url: string): string {
  const resolved = new URL(url, location.href);
  if (resolved.origin !== location.origin) throw new TypeError(`Script URL of another site: ${url}`);
  return resolved.href;
}

const factory = (window as Partial<TrustedTypesWindow>).trustedTypes;
const policy = factory
  ? factory.createPolicy(TRUSTED_TYPES_POLICY, {
      createHTML: sanitizeHtml,
      createScriptURL: sameOriginScriptUrl,
    })
  : null;

/** For `dangerouslySetInnerHTML`: sanitised, and trusted where the browser asks for it. */
export function trustedHtml(html: string): TrustedHTML | string {
  return policy ? policy.createHTML(html) : sanitizeHtml(html);
}

/**
 * For `new SharedWorker(...)`, `new Worker(...)` and service worker registration. Typed as a
 * string because the DOM types of those constructors know no Trusted Types; at run time it is a
 * TrustedScriptURL where the browser has them.
 */
export function trustedScriptUrl(url: string): string {
  return policy ? (policy.createScriptURL(url) as TrustedScriptURL & string) : sameOriginScriptUrl(url);
}
