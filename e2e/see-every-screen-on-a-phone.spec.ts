import { registerChild } from '../harness/actors/child-account.ts';
import { AppPage } from '../harness/page-models/app-page.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';
import { logInChild } from '../harness/page-models/child-login.ts';
import { HistoricChatWindow } from '../harness/page-models/historic-chat-window.ts';
import { MyConversationsPage } from '../harness/page-models/my-conversations.ts';
import { ThreadPage } from '../harness/page-models/thread-page.ts';
import { childWithHistory, HISTORY_MAIL_SUBJECT } from './support/child-with-history.ts';
import { type PhoneScreen } from './support/small-screens.ts';
import { screensFitAPhone } from './support/phone-walks.ts';
import { expect, type Page } from './support/test.ts';

// The child app's screens at 320x568, 360x640 and 390x844, signed out and signed in, with the
// keyboard open where there is something to write (support/small-screens.ts says what is checked).
const signedOut: PhoneScreen[] = [
  {
    name: 'start-signed-out',
    open: async (page) => {
      await page.goto('/');
      await expect(new AppPage(page).loginButton).toBeVisible();
    },
    primary: (page) => new AppPage(page).loginButton,
  },
  {
    name: 'login',
    open: async (page) => {
      await page.goto('/');
      await new AppPage(page).loginButton.click();
      await expect(new AppPage(page).loginDialog).toBeVisible();
    },
    field: (page) => new AppPage(page).modalLoginForm().password,
    submit: (page) => new AppPage(page).modalLoginForm().submit,
  },
  {
    name: 'create-account',
    open: async (page) => {
      await page.goto('/skapa-konto');
      await expect(page.getByRole('heading', { level: 1, name: 'Skapa konto' })).toBeVisible();
    },
    primary: (page) => page.getByRole('button', { name: 'Skapa konto' }),
  },
];

const signedIn: PhoneScreen[] = [
  {
    name: 'start-signed-in',
    open: async (page) => {
      await page.goto('/');
      await expect(new ChildChatPage(page).startButton).toBeVisible();
    },
    primary: (page) => new ChildChatPage(page).startButton,
  },
  {
    name: 'my-pages',
    open: async (page) => {
      await page.goto('/mina-sidor');
      await expect(page.getByRole('heading', { level: 1, name: 'Mina sidor' })).toBeVisible();
    },
  },
  {
    name: 'settings',
    open: async (page) => {
      await page.goto('/installningar');
      await expect(page.getByRole('heading', { level: 1, name: 'Inställningar' })).toBeVisible();
    },
  },
  {
    name: 'new-mail',
    open: async (page) => {
      await page.goto('/mina-sidor/nytt-inlagg');
      await expect(page.getByRole('heading', { level: 1, name: 'Nytt meddelande' })).toBeVisible();
    },
    field: (page) =>
      page.getByRole('form', { name: 'Nytt meddelande' }).getByLabel('Meddelande', { exact: true }),
    submit: (page) =>
      page.getByRole('form', { name: 'Nytt meddelande' }).getByRole('button', { name: 'Skicka' }),
  },
];

screensFitAPhone({ signedOut, signedIn }, async (page, request) => {
  await new ChildChatPage(page).logIn(await registerChild(request, 'skarm'));
});

// What a child reads later: a mail thread with its reply form, and an ended chat in the history.
// A child of its own, with a mail and a chat a counsellor answered (and a chat today: the start
// page then says so, and is walked above with a child without one).
const myPages = async (page: Page) => {
  await page.goto('/mina-sidor');
  await expect(page.getByRole('heading', { level: 1, name: 'Mina sidor' })).toBeVisible();
  return new MyConversationsPage(page);
};
const withHistory: PhoneScreen[] = [
  {
    name: 'mail-thread',
    open: async (page) => {
      await (await myPages(page)).openThread(HISTORY_MAIL_SUBJECT);
      await expect(new ThreadPage(page).heading).toHaveText(HISTORY_MAIL_SUBJECT);
    },
    field: (page) => new ThreadPage(page).reply,
    submit: (page) => new ThreadPage(page).send,
  },
  {
    name: 'chat-history',
    open: async (page) => {
      await (await myPages(page)).openNewestChat();
      await expect(new HistoricChatWindow(page).message('Jag heter Kim')).toBeVisible();
    },
    primary: (page) => new HistoricChatWindow(page).back,
  },
];

screensFitAPhone({ signedOut: [], signedIn: withHistory }, async (page, request) => {
  await logInChild(page, (await childWithHistory(request, 'skarm')).account);
});
