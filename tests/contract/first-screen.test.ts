import { describe, expect, it } from 'vitest';
import {
  DEFAULT_QUICK_EXIT_URL,
  fillQuickExitUrl,
  QUICK_EXIT_ATTRIBUTE,
} from '../../contract/first-screen.ts';

/** The quick exit link as the build's prerender writes it (src/quick-exit/quick-exit-button.tsx). */
const link = (href: string) =>
  `<a ${QUICK_EXIT_ATTRIBUTE}="" href="${href}" role="button" class="b1">Lämna sidan</a>`;

describe('fillQuickExitUrl', () => {
  it('puts the configured address into every quick exit link and leaves every other link alone', () => {
    const html = `<a href="${DEFAULT_QUICK_EXIT_URL}">Väder</a>${link(DEFAULT_QUICK_EXIT_URL)}<p>${link('x')}</p>`;
    expect(fillQuickExitUrl(html, 'https://www.example.se/nyheter')).toBe(
      `<a href="${DEFAULT_QUICK_EXIT_URL}">Väder</a>${link('https://www.example.se/nyheter')}<p>${link('https://www.example.se/nyheter')}</p>`,
    );
  });

  it('escapes the address for an attribute, so it cannot add markup of its own', () => {
    const filled = fillQuickExitUrl(
      link(DEFAULT_QUICK_EXIT_URL),
      "https://a.se/?q=\"><script>x</script>&b='1'",
    );
    expect(filled).toBe(link('https://a.se/?q=&quot;&gt;&lt;script&gt;x&lt;/script&gt;&amp;b=&#x27;1&#x27;'));
    expect(filled).not.toContain('<script>');
  });

  it('changes nothing in a page without the link', () => {
    const html = '<!doctype html><title>Stödlinjen</title><div id="root"></div>';
    expect(fillQuickExitUrl(html, 'https://www.example.se/')).toBe(html);
  });
});
