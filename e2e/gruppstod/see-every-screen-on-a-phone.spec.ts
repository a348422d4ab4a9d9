import type { Page } from '@playwright/test';
import { GroupStartPage } from '../../harness/page-models/group-start-page.ts';
import { LoginPage } from '../../harness/page-models/login-page.ts';
import { MeetingDetailPage } from '../../harness/page-models/meeting-detail-page.ts';
import { expect } from '../support/test.ts';
import { screensFitAPhone, startPage } from '../support/phone-walks.ts';

// Group support's start page at 320x568, 360x640 and 390x844: signed out with the personal code
// typed (keyboard open, 'Logga in' in view), and signed in with the meeting list and a meeting's
// detail.
const login = (page: Page) => new LoginPage(page.getByRole('main'));
const privateMessage = (page: Page) => new MeetingDetailPage(page).main.getByLabel('Meddelande');

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
      {
        // An upcoming meeting's detail with its private message to the leaders open.
        name: 'meeting-detail',
        open: async (page) => {
          await new GroupStartPage(page).goto();
          await new GroupStartPage(page).openFirstUpcoming();
          const detail = new MeetingDetailPage(page);
          await expect(detail.badge('Kommande')).toBeVisible();
          await detail.privateMessage.click();
          await expect(privateMessage(page)).toBeVisible();
        },
        field: (page) => privateMessage(page),
        submit: (page) => new MeetingDetailPage(page).main.getByRole('button', { name: 'Skicka' }),
      },
    ],
  },
  async (page) => {
    await page.goto('/');
    await new GroupStartPage(page).logIn();
  },
);
