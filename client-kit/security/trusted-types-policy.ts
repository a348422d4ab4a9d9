/**
 * The pages' one Trusted Types policy (the server's Content-Security-Policy requires Trusted Types
 * for every DOM sink and names it, server/security/browser-policy.ts). A script URL passes only when
 * it is of this site (the data worker, the service worker); HTML only through the sanitiser that
 * trusted-types.ts registers (with DOMPurify, which the first screen does not need), and none at all
 * before it is registered. Where the browser has no Trusted Types (tests in happy-dom), the same
 * checks give plain strings.
 */
import type { TrustedHTML, TrustedScriptURL, TrustedTypesWindow } from 'trusted-types/lib/index.js';
import { TRUSTED_TYPES_POLICY } from '../../contract/browser-policy.ts';

let sanitizer: ((html: string) => string) | undefined;

/** Called once by trusted-types.ts as it loads: from then on the policy creates HTML. */
export function registerHtmlSanitizer(sanitize: (html: string) => string): void {
  sanitizer = sanitize;
}

function sanitized(html: string): string {
  if (!sanitizer) throw new TypeError('No HTML sanitiser: import trustedHtml from trusted-types.ts');
  return sanitizer(html);
}

/** The worker scripts of this site; anything else is refused. */
function sameOriginScriptUrl(url: string): string {
  const resolved = new URL(url, location.href);
  if (resolved.origin !== location.origin) throw new TypeError(`Script URL of another site: ${url}`);
  return resolved.href;
}

// No window at all where the first screen is rendered at build time (src/prerender.tsx, in Node).
const factory =
  typeof window === 'undefined' ? undefined : (window as Partial<TrustedTypesWindow>).trustedTypes;
const policy = factory
  ? factory.createPolicy(TRUSTED_TYPES_POLICY, {
      createHTML: sanitized,
      createScriptURL: sameOriginScriptUrl,
    })
  : null;

/** Sanitised HTML, trusted where the browser asks for it (use trustedHtml of trusted-types.ts). */
export function policyHtml(html: string): TrustedHTML | string {
  return policy ? policy.createHTML(html) : sanitized(html);
}

/**
 * For `new SharedWorker(...)`, `new Worker(...)` and service worker registration. Typed as a
 * string because the DOM types of those constructors know no Trusted Types; at run time it is a
 * TrustedScriptURL where the browser has them.
 */
export function trustedScriptUrl(url: string): string {
  return policy ? (policy.createScriptURL(url) as TrustedScriptURL & string) : sameOriginScriptUrl(url);
}
