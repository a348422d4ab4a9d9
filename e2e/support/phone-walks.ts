import type { APIRequestContext, Page } from '@playwright/test';
import { registerChild } from '../../harness/actors/child-account.ts';
import { logInChild } from '../../harness/page-models/child-login.ts';
import { expect, test } from './test.ts';
import { walkOnPhones, type PhoneScreen } from './small-screens.ts';

/** The start page as it opens: its main content shown. */
export const startPage = (extra: Partial<PhoneScreen> = {}): PhoneScreen => ({
  name: 'start',
  open: async (page) => {
    await page.goto('/');
    await expect(page.getByRole('main')).toBeVisible();
  },
  ...extra,
});

/** A child of this variant signed in through its own login (a password login unless told). */
export type LogIn = (page: Page, request: APIRequestContext) => Promise<void>;
export const passwordLogIn: LogIn = async (page, request) =>
  logInChild(page, await registerChild(request, 'telefon'));

/**
 * A variant's screens at the three phone sizes (support/small-screens.ts), signed out and signed in:
 * one test each, for the variant folder's spec to call.
 */
export function screensFitAPhone(
  screens: { signedOut: PhoneScreen[]; signedIn: PhoneScreen[] },
  logIn: LogIn = passwordLogIn,
) {
  for (const screen of screens.signedOut) {
    test(`signed out, ${screen.name} fits a phone`, async ({ browser }, testInfo) => {
      const context = await browser.newContext({ hasTouch: true, isMobile: true });
      await walkOnPhones(await context.newPage(), testInfo, screen);
      await context.close();
    });
  }
  for (const screen of screens.signedIn) {
    test(`signed in, ${screen.name} fits a phone`, async ({ browser, request }, testInfo) => {
      const context = await browser.newContext({ hasTouch: true, isMobile: true });
      const page = await context.newPage();
      await logIn(page, request);
      await walkOnPhones(page, testInfo, screen);
      await context.close();
    });
  }
}

/** The header's login or logout button: the action a variant's start page is reached for. */
const headerButton = (name: string) => (page: Page) => page.getByRole('banner').getByRole('button', { name });

/**
 * A variant whose start page is what it has of its own beside the child app's screens: that page,
 * signed out and signed in with a password login.
 */
export function startPagesFitAPhone() {
  screensFitAPhone({
    signedOut: [startPage({ name: 'start-signed-out', primary: headerButton('Logga in') })],
    signedIn: [startPage({ name: 'start-signed-in', primary: headerButton('Logga ut') })],
  });
}
