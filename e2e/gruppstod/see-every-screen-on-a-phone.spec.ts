import type { Page } from '@playwright/test';
import { GroupStartPage } from '../../harness/page-models/group-start-page.ts';
import { LoginPage } from '../../harness/page-models/login-page.ts';
import { screensFitAPhone, startPage } from '../support/phone-walks.ts';

// Group support's start page at 320x568, 360x640 and 390x844: signed out with the personal code
// typed (keyboard open, 'Logga in' in view), and signed in with the meeting list.
const login = (page: Page) => new LoginPage(page.getByRole('main'));

screensFitAPhone(
  {
    signedOut: [
      startPage({
        name: 'start-signed-out',
        field: (page) => login(page).personalCode,
        submit: (page) => login(page).submit,
      }),
    ],
    signedIn: [
      startPage({
        name: 'meetings',
        primary: (page) => page.getByRole('banner').getByRole('button', { name: 'Logga ut' }),
      }),
    ],
  },
  async (page) => {
    await page.goto('/');
    await new GroupStartPage(page).logIn();
  },
);
