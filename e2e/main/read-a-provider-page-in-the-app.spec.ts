import { chromiumLaunchOptions } from '../../playwright.config.ts';
import { expect, test } from '../support/test.ts';

// The provider's site is a public address and the app runs on 127.0.0.1 here: Chromium's
// local-network checks would stop a public page's frame from coming back to a local one, which in
// production are both public. This file alone turns those checks off.
test.use({
  launchOptions: {
    ...chromiumLaunchOptions,
    args: [
      ...(chromiumLaunchOptions.args ?? []),
      '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessForNavigations,PrivateNetworkAccessForIframes,BlockInsecurePrivateNetworkRequests',
    ],
  },
});

/** The provider's page as its own site would serve it: it answers 'iframeBack' and links home. */
const providerPage = (home: string) => `<!doctype html>
<html lang="sv"><head><meta charset="utf-8"><title>Integritetspolicy</title></head>
<body>
  <h1>Integritetspolicy</h1>
  <p id="tillbaka">Inte tillbaka</p>
  <a id="hem" href="${home}">Till appen</a>
  <script>
    addEventListener('message', (e) => {
      if (e.data === 'iframeBack') document.getElementById('tillbaka').textContent = 'Tillbaka mottaget';
    });
  </script>
</body></html>`;

test("a provider's page opens in the app, is told when the child goes back, and closes when it leads home", async ({
  page,
  baseURL,
}) => {
  await page.route('https://example.org/**', (route) =>
    route.fulfill({ contentType: 'text/html; charset=utf-8', body: providerPage(`${baseURL}/`) }),
  );
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('button', { name: 'Integritetspolicy' }).click();

  const dialog = page.getByRole('dialog', { name: 'Integritetspolicy' });
  await expect(dialog).toBeVisible();
  const frame = page.frameLocator('iframe[title="Integritetspolicy"]');
  await expect(frame.getByRole('heading', { name: 'Integritetspolicy' })).toBeVisible();

  // SPEC §2: 'Tillbaka' is relayed to the embedded page as 'iframeBack'.
  await dialog.getByRole('button', { name: 'Tillbaka' }).click();
  await expect(frame.locator('#tillbaka')).toHaveText('Tillbaka mottaget');

  // Landing on the product's own host closes the dialog.
  await frame.getByRole('link', { name: 'Till appen' }).click();
  await expect(dialog).toBeHidden();
});
