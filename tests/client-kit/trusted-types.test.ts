import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { launchChromium } from '../../harness/chromium.ts';
import { build, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../server/security/browser-policy.ts';
import type * as TrustedTypesModule from '../../client-kit/security/trusted-types.ts';

/**
 * The policy module in Chromium, on a page under the server's own Content-Security-Policy:
 * happy-dom cannot run DOMPurify (its NodeIterator stops at the first removed node, so everything
 * after it would pass unsanitised), and Trusted Types exist only in a real browser.
 */
const ORIGIN = 'http://portal.test';
let browser: Browser;
let page: Page;

declare global {
  interface Window {
    policy: typeof TrustedTypesModule;
  }
}

async function bundle(): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: {
        entry: path.resolve(import.meta.dirname, '../../client-kit/security/trusted-types.ts'),
        formats: ['iife'],
        name: 'policy',
        fileName: 'policy',
      },
    },
  });
  const [output] = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  return output!.output[0].code;
}

beforeAll(async () => {
  const script = await bundle();
  browser = await launchChromium();
  page = await browser.newPage();
  const csp = contentSecurityPolicy(
    {
      authUrl: ORIGIN,
      apiUrl: `${ORIGIN}/portal`,
      signalHubUrl: ORIGIN,
      providerUrl: 'https://example.org',
    } as Parameters<typeof contentSecurityPolicy>[0],
    ORIGIN,
  );
  await page.route(`${ORIGIN}/**`, (route) =>
    new URL(route.request().url()).pathname === '/policy.js'
      ? route.fulfill({ contentType: 'text/javascript', body: script })
      : route.fulfill({
          contentType: 'text/html',
          headers: { 'Content-Security-Policy': csp },
          body: '<!doctype html><script src="/policy.js"></script><div id="out"></div>',
        }),
  );
  await page.goto(`${ORIGIN}/`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

const sanitizeHtml = (html: string) => page.evaluate((h) => window.policy.sanitizeHtml(h), html);
const trustedScriptUrl = (url: string) =>
  page.evaluate((u) => {
    try {
      return String(window.policy.trustedScriptUrl(u));
    } catch (error) {
      return (error as Error).name;
    }
  }, url);

/** The elements a sanitised string holds once it is on the page (through the policy). */
const elementNames = (html: string) =>
  page.evaluate((h) => {
    const out = document.getElementById('out')!;
    out.innerHTML = window.policy.trustedHtml(h) as unknown as string;
    return [...out.querySelectorAll('*')].map((e) => e.tagName.toLowerCase());
  }, html);

describe('server and chat HTML through the policy', () => {
  it('keeps text elements and their text', async () => {
    const html =
      '<h2>Om gruppen</h2><p>Vi ses <strong>varje</strong> <em>tisdag</em>.<br>Välkommen!</p>' +
      '<ul><li><b>ett</b></li><li><i>två</i></li></ul><ol><li><u>tre</u></li></ol>' +
      '<blockquote><span>citat</span></blockquote><h3>a</h3><h4>b</h4>';
    expect(await sanitizeHtml(html)).toBe(html);
  });

  it('drops scripts, frames, objects, SVG, MathML, images, media and styles with their content', async () => {
    const corpus = [
      '<script>window.__xss=1</script>',
      '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
      '<object data="x"></object><embed src="x">',
      '<svg onload="window.__xss=1"><circle r="1"></circle></svg>',
      '<math><mi>x</mi></math>',
      '<img src=x onerror="window.__xss=1">',
      '<img src="https://tracker.example/pixel.png">',
      '<video src="x"></video><audio src="x"></audio>',
      '<style>body{display:none}</style>',
      '<link rel="stylesheet" href="https://evil.example/x.css">',
      '<meta http-equiv="refresh" content="0;url=https://evil.example">',
      '<base href="https://evil.example/">',
      '<template><script>window.__xss=1</script></template>',
    ];
    for (const payload of corpus) {
      expect(await sanitizeHtml(`<p>före</p>${payload}<p>efter</p>`), payload).toBe(
        '<p>före</p><p>efter</p>',
      );
    }
  });

  it('drops forms and their controls, keeping only their text', async () => {
    const clean = await sanitizeHtml(
      '<form action="https://evil.example"><label>Lösenord<input type="password" name="p"></label>' +
        '<button formaction="https://evil.example">Skicka</button><textarea>t</textarea>' +
        '<select><option>o</option></select></form>',
    );
    expect(await elementNames(clean)).toEqual([]);
    expect(clean).toBe('LösenordSkickato');
  });

  it('drops every attribute but a link address: styles, classes, ids, handlers, data and aria', async () => {
    const clean = await sanitizeHtml(
      '<div style="position:fixed;inset:0;background:red">overlay</div>' +
        '<p style="color:red" class="x" id="main" onclick="window.__xss=1" data-x="1" aria-hidden="true" title="t">text</p>',
    );
    expect(clean).toBe('overlay<p>text</p>');
  });

  it('keeps http, https and mailto links, opening in a new tab without opener or referrer', async () => {
    for (const href of ['https://bris.se/a?b=1', 'http://bris.se/', 'mailto:stod@example.org']) {
      expect(
        await sanitizeHtml(`<a href="${href}" target="_top" rel="opener" style="x">länk</a>`),
        href,
      ).toBe(`<a href="${href}" target="_blank" rel="noopener noreferrer">länk</a>`);
    }
  });

  it('takes the address from javascript:, data:, vbscript: and relative links, keeping their text', async () => {
    for (const href of [
      'javascript:window.__xss=1',
      ' JaVaScRiPt:window.__xss=1',
      'java&#x09;script:window.__xss=1',
      'data:text/html,&lt;script&gt;window.__xss=1&lt;/script&gt;',
      'vbscript:msgbox(1)',
      '/utloggad',
      '//evil.example',
    ]) {
      expect(await sanitizeHtml(`<a href="${href}">länk</a>`), href).toBe('<a>länk</a>');
    }
  });

  it('keeps an attribute break-out as text', async () => {
    const clean = await sanitizeHtml('"><script>window.__xss=1</script><p>x</p>');
    expect(clean).toBe('"&gt;<p>x</p>');
  });

  it('puts the sanitised HTML on the page through the policy, where a plain string is refused', async () => {
    expect(
      await elementNames('<p onclick="window.__xss=1">hej</p><img src=x onerror="window.__xss=1">'),
    ).toEqual(['p']);
    const refused = await page.evaluate(() => {
      try {
        document.getElementById('out')!.innerHTML = '<b>x</b>';
        return false;
      } catch (error) {
        return error instanceof TypeError;
      }
    });
    expect(refused).toBe(true);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  });
});

describe('worker script URLs through the policy', () => {
  it('accepts this site only', async () => {
    expect(await trustedScriptUrl('/sw.js')).toBe(`${ORIGIN}/sw.js`);
    expect(await trustedScriptUrl('https://evil.example/sw.js')).toBe('TypeError');
    expect(await trustedScriptUrl('data:text/javascript,1')).toBe('TypeError');
  });
});
