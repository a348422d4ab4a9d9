import { expect, type Page } from '@playwright/test';
import type { ChildAccount } from '../actors/child-account.ts';
import { StartPage } from './start-page.ts';

/** Logs a child in from the start page's login modal, as a person would. */
export async function logInChild(page: Page, account: ChildAccount) {
  const start = new StartPage(page);
  await start.goto();
  await (await start.openLoginModal()).logIn(account.username, account.password);
  await expect(start.logoutButton).toBeVisible();
}
