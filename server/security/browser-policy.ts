import { TRUSTED_TYPES_POLICY } from '../../contract/browser-policy.ts';
import type { RuntimeConfig } from '../../contract/config.ts';

/**
 * The pages' own Trusted Types policy (every HTML string through DOMPurify, every worker script URL
 * of this origin), and DOMPurify's internal one, with which it parses what it is about to
 * sanitise; each name may be created once.
 */
const TRUSTED_TYPES_NAMES = [TRUSTED_TYPES_POLICY, 'dompurify'];

export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=()';
export const HSTS = 'max-age=31536000; includeSubDomains';

/** An origin of `url`, or null for a URL the browser could not connect to anyway. */
function originOf(url: string): string | null {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** The WebSocket origin beside an http(s) one: 'self' covers it for the own origin (CSP3), not others. */
function webSocketOrigin(origin: string): string {
  return origin.replace(/^http/, 'ws');
}

/**
 * SPEC-less, ours: the Content-Security-Policy of every page and script. No inline
 * script or style, no eval, no plugins, no <base>, no framing by other sites, and DOM HTML sinks
 * only through the Trusted Types policy. The runtime config's auth, API and hub URLs are the only
 * other places the pages may talk to (none beyond 'self' on the reference server); the provider's
 * site is the only one the embedded-page dialog may frame.
 */
export function contentSecurityPolicy(config: RuntimeConfig, ownOrigin: string): string {
  const others = (urls: string[]) => [
    ...new Set(urls.map(originOf).filter((o): o is string => o !== null && o !== ownOrigin)),
  ];
  const apiOrigins = others([config.authUrl, config.apiUrl]);
  const hubOrigins = others([config.signalHubUrl]);
  const connect = [...new Set([...apiOrigins, ...hubOrigins, ...hubOrigins.map(webSocketOrigin)])];
  const frames = others([config.providerUrl]);
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    ["connect-src 'self'", ...connect].join(' '),
    // The embedded-page dialog (SPEC §2) frames the provider's pages and notices a frame that
    // lands back on this site.
    ["frame-src 'self'", ...frames].join(' '),
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    // 'self', not 'none': the embedded-page dialog must see its frame land on this site (SPEC §2);
    // no other site may frame the app.
    "frame-ancestors 'self'",
    "require-trusted-types-for 'script'",
    `trusted-types ${TRUSTED_TYPES_NAMES.join(' ')}`,
  ].join('; ');
}
