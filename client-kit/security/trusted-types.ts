/**
 * HTML for the pages' one Trusted Types policy (trusted-types-policy.ts): HTML reaches the page only
 * sanitised to text elements. DOMPurify lives here, apart from the policy, so that only the screens
 * that show HTML (chat messages, meeting content) load it, not the start page. Where the
 * browser has no Trusted Types (tests in happy-dom), the same checks give plain strings.
 */
import DOMPurify, { type Config } from 'dompurify';
// The types DOMPurify's own declarations use (its optional dependency, @types/trusted-types).
import type { TrustedHTML } from 'trusted-types/lib/index.js';
import { policyHtml, registerHtmlSanitizer } from './trusted-types-policy.ts';

export { trustedScriptUrl } from './trusted-types-policy.ts';

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

registerHtmlSanitizer(sanitizeHtml);

/** For `dangerouslySetInnerHTML`: sanitised, and trusted where the browser asks for it. */
export function trustedHtml(html: string): TrustedHTML | string {
  return policyHtml(html);
}
