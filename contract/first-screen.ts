/**
 * What the child app's first HTML says before any script runs (index.html carries the shell every
 * start page shares, rendered at build time): the provider, and where 'Lämna sidan' leads. The
 * server fills the configured address into the HTML it serves, and the service worker into its
 * cached copy, both with `fillQuickExitUrl`.
 */

/** The provider of the reference deployment (`providerName`, `providerUrl` in `/config.json`). */
export const PROVIDER = { name: 'Stödlinjen', url: 'https://example.org' } as const;

/** A weather forecast: neutral, public, and ordinary on any phone (env QUICK_EXIT_URL overrides it). */
export const DEFAULT_QUICK_EXIT_URL = 'https://www.smhi.se/';

/**
 * The quick exit link's marker. The link is rendered with this attribute right before its `href`
 * (src/quick-exit/quick-exit-button.tsx), which is what `fillQuickExitUrl` looks for.
 */
export const QUICK_EXIT_ATTRIBUTE = 'data-quick-exit';

const QUICK_EXIT_HREF = new RegExp(`(<a [^>]*?${QUICK_EXIT_ATTRIBUTE}="" href=")[^"]*(")`, 'g');

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '"': '&quot;',
  '<': '&lt;',
  '>': '&gt;',
  "'": '&#x27;',
};

/** Puts `url` into every quick exit link of `html`, escaped for an attribute; other markup is kept. */
export function fillQuickExitUrl(html: string, url: string): string {
  const escaped = url.replace(/[&"<>']/g, (c) => ATTRIBUTE_ESCAPES[c]!);
  return html.replace(QUICK_EXIT_HREF, (_all, start: string, end: string) => `${start}${escaped}${end}`);
}
