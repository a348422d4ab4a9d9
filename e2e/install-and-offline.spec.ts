import path from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from './support/test.ts';
import { accessibilityViolations } from './support/accessibility.ts';

// The PWA layer (src/pwa, sw/): the service worker registers in production only, the installed app
// opens offline, and mobile users are offered installation. Asserts only what survives changes to
// the shell: the title, the rendered root and the footer's way back to the organisation.

const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';

/** startPwa() reads this once: no 30 s wait in a test. */
async function shortenRegistrationDelay(page: Page) {
  await page.addInitScript(() => {
    window.__PWA_TEST_DELAY_MS__ = 0;
  });
}

/** The e2e server is not in production; this page believes it is. */
async function pretendProduction(page: Page) {
  await page.route('**/config.json', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), production: true } });
  });
}

async function expectAppShell(page: Page) {
  await expect(page).toHaveTitle('Stödlinjen');
  await expect(page.locator('#root > *').first()).toBeAttached();
  await expect(page.getByText('Gå tillbaka till', { exact: false }).first()).toBeVisible();
}

async function registrations(page: Page) {
  return page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length);
}

// A reload can leave a config route answering when the test ends: let it finish first.
test.afterEach(async ({ page }) => {
  await page.unrouteAll({ behavior: 'wait' });
});

test('outside production no service worker is registered', async ({ page }) => {
  await shortenRegistrationDelay(page);
  await page.goto('/');
  await expectAppShell(page);
  await page.waitForTimeout(1_000);
  expect(await registrations(page)).toBe(0);
});

test('in production the app registers its service worker and then opens offline', async ({
  page,
  context,
}) => {
  await shortenRegistrationDelay(page);
  await pretendProduction(page);
  await page.goto('/');
  await expectAppShell(page);

  const scriptURL = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
  expect(new URL(scriptURL ?? '').pathname).toBe('/sw.js');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

  await context.setOffline(true);
  const reloaded = await page.reload();
  expect(reloaded?.fromServiceWorker()).toBe(true);
  await expectAppShell(page);

  // Any client route is the app shell too.
  const deepLink = await page.goto('/tillfalle/3');
  expect(deepLink?.fromServiceWorker()).toBe(true);
  await expect(page).toHaveTitle('Stödlinjen');
  await expect(page.locator('#root > *').first()).toBeAttached();
  await context.setOffline(false);
});

/** Serves a changed dist/sw.js while `run` runs: the browser fetches the script for an update check
 * itself, past any Playwright route, so only a changed file on the server is a new version. */
async function withNewVersionOnServer(run: () => Promise<void>) {
  // The servers serve CLIENT_DIR when it is set (a build of one's own), else dist/.
  const clientDir = process.env.CLIENT_DIR ?? fileURLToPath(new URL('../dist', import.meta.url));
  const serviceWorkerFile = path.join(clientDir, 'sw.js');
  const original = await readFile(serviceWorkerFile, 'utf8');
  const changed = `${original}\n// next version\n`;
  // The server hands out the build's precompressed copies first: they change with it.
  const copies = [
    { file: `${serviceWorkerFile}.br`, encode: (text: string) => brotliCompressSync(text) },
    { file: `${serviceWorkerFile}.gz`, encode: (text: string) => gzipSync(text) },
  ];
  const originals = await Promise.all(copies.map((c) => readFile(c.file).catch(() => null)));
  try {
    await writeFile(serviceWorkerFile, changed);
    for (const [i, copy] of copies.entries())
      if (originals[i]) await writeFile(copy.file, copy.encode(changed));
    await run();
  } finally {
    // A build that ran meanwhile wrote a newer sw.js: that one stays.
    if ((await readFile(serviceWorkerFile, 'utf8')) === changed) {
      await writeFile(serviceWorkerFile, original);
      for (const [i, copy] of copies.entries()) {
        const before = originals[i];
        if (before) await writeFile(copy.file, before);
      }
    }
  }
}

async function openInstalledApp(page: Page) {
  await shortenRegistrationDelay(page);
  await pretendProduction(page);
  await page.goto('/');
  await expectAppShell(page);
  await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.evaluate(() => Object.assign(window, { beforeUpdate: true }));
}

/** Becoming visible is one of the two update triggers (the other is the 60 s interval). */
async function checkForUpdate(page: Page) {
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
}

const stillTheOldPage = (page: Page) => page.evaluate(() => 'beforeUpdate' in window);

test('a new version found by the update check reloads the page', async ({ page }) => {
  await openInstalledApp(page);
  await withNewVersionOnServer(async () => {
    const reloaded = page.waitForEvent('load');
    await checkForUpdate(page);
    await reloaded;
  });
  expect(await stillTheOldPage(page)).toBe(false);
  await expectAppShell(page);
});

// The deferral while a form holds data is covered by tests/pwa/update-controller.test.ts: in a
// browser it depends on when workbox reports the waiting worker, which made an e2e test flaky.

test.describe('on a mobile phone', () => {
  test.use({ userAgent: ANDROID_UA, viewport: { width: 390, height: 844 }, isMobile: true });

  async function offerInstallation(page: Page) {
    await page.evaluate(() => {
      const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
        prompt: async () => {
          (window as unknown as { prompted: boolean }).prompted = true;
          return { outcome: 'accepted' };
        },
      });
      window.dispatchEvent(offer);
    });
  }

  test('the user is offered installation and installs', async ({ page }) => {
    await page.goto('/');
    await expectAppShell(page);
    await offerInstallation(page);

    const dialog = page.getByRole('dialog', { name: 'Installera på din telefon?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Vill du installera appen på din telefon för en bättre upplevelse?');
    await expect(dialog.getByRole('button', { name: 'Avbryt' })).toBeFocused();
    expect(await accessibilityViolations(page, '[role="dialog"]')).toEqual([]);

    await dialog.getByRole('button', { name: 'Installera' }).click();
    await expect(dialog).toBeHidden();
    expect(await page.evaluate(() => (window as unknown as { prompted?: boolean }).prompted)).toBe(true);
  });

  test('an offer that comes before the app has its config is kept and shown', async ({ page }) => {
    // The earliest the browser can offer: when the document is parsed, right after the entry script
    // has run and before React has mounted anything.
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
          prompt: async () => ({ outcome: 'dismissed' }),
        });
        window.dispatchEvent(offer);
        (window as unknown as { keptFromBrowser: boolean }).keptFromBrowser = offer.defaultPrevented;
      });
    });
    await page.goto('/');
    await expect(page.getByRole('dialog', { name: 'Installera på din telefon?' })).toBeVisible();
    // The browser's own mini-infobar was held back: the modal asks instead.
    expect(
      await page.evaluate(() => (window as unknown as { keptFromBrowser?: boolean }).keptFromBrowser),
    ).toBe(true);
  });

  test('Escape dismisses the offer without installing', async ({ page }) => {
    await page.goto('/');
    await expectAppShell(page);
    await offerInstallation(page);

    const dialog = page.getByRole('dialog', { name: 'Installera på din telefon?' });
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    expect(await page.evaluate(() => (window as unknown as { prompted?: boolean }).prompted)).toBeUndefined();
  });
});

const IPHONE_SAFARI_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
// iPadOS Safari asks for desktop sites by default: only its touch screen tells it from a Mac.
const IPAD_DESKTOP_SAFARI_UA =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const INSTALL_STEPS = [
  'Tryck på Dela (fyrkanten med en pil uppåt).',
  'Välj Lägg till på hemskärmen.',
  'Tryck på Lägg till.',
];

/** Gives the page Safari's touch points, and its home-screen flag when opened from there. */
async function likeSafari(page: Page, { maxTouchPoints = 5, standalone = false } = {}) {
  await page.addInitScript(
    ([points, homeScreen]) => {
      Object.defineProperty(Navigator.prototype, 'maxTouchPoints', { get: () => points });
      Object.defineProperty(Navigator.prototype, 'standalone', { get: () => homeScreen });
    },
    [maxTouchPoints, standalone] as const,
  );
}

/** Two frames after the shell is up, a dialog the app start asked for would be drawn. */
async function afterStartRendered(page: Page) {
  await expectAppShell(page);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

const installDialog = (page: Page) => page.getByRole('dialog', { name: 'Installera på din telefon?' });

test.describe('on an iPhone in Safari', () => {
  test.use({
    userAgent: IPHONE_SAFARI_UA,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });

  test("the install modal shows Safari's steps, 'Dela' then 'Lägg till på hemskärmen', once", async ({
    page,
  }) => {
    await likeSafari(page);
    await page.goto('/');
    const dialog = installDialog(page);
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Vill du installera appen på din telefon för en bättre upplevelse?');
    await expect(dialog.getByRole('listitem')).toHaveText(INSTALL_STEPS);
    await expect(dialog.getByRole('button', { name: 'Installera' })).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Stäng' })).toBeFocused();
    expect(await accessibilityViolations(page, '[role="dialog"]')).toEqual([]);

    await dialog.getByRole('button', { name: 'Stäng' }).click();
    await expect(dialog).toBeHidden();
    await page.reload();
    await afterStartRendered(page);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('opened from the home screen, the app shows no steps', async ({ page }) => {
    await likeSafari(page, { standalone: true });
    await page.goto('/');
    await afterStartRendered(page);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});

test.describe('on an iPad in Safari, which says it is a Mac', () => {
  test.use({ userAgent: IPAD_DESKTOP_SAFARI_UA });

  test('the touch screen brings the steps', async ({ page }) => {
    await likeSafari(page);
    await page.goto('/');
    await expect(installDialog(page).getByRole('listitem')).toHaveText(INSTALL_STEPS);
  });

  test('a real Mac, without touch, gets no steps', async ({ page }) => {
    await likeSafari(page, { maxTouchPoints: 0 });
    await page.goto('/');
    await afterStartRendered(page);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});

test('Chromium on its own shows no install steps', async ({ page }) => {
  await page.goto('/');
  await afterStartRendered(page);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a desktop browser is not offered installation', async ({ page }) => {
  await page.goto('/');
  await expectAppShell(page);
  await page.evaluate(() =>
    window.dispatchEvent(Object.assign(new Event('beforeinstallprompt'), { prompt: async () => ({}) })),
  );
  await page.waitForTimeout(300);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
