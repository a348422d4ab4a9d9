import { e2eDatabaseUrl } from '../playwright.config.ts';
import { openDatabase } from '../server/db/database.ts';
import { stockholmWeekHour } from '../server/conversations/calm-times.ts';
import { conversationRow } from '../server/conversations/writes.ts';
import { registerChild } from '../harness/actors/child-account.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';
import { startFaultProxy } from '../harness/fault-proxy.ts';
import { keepScreenshot } from './support/small-screens.ts';
import { violationsAtBothWidths } from './support/accessibility.ts';
import { expect, test } from './support/test.ts';

/**
 * 'När är det lugnast?' (docs/decisions.md "When it is calm"): a child in the queue opens the
 * channel's typical waits by weekday and hour beside the estimated wait, then opens them again with
 * the network gone and reads the copy the data worker kept. The waits are the server's record of its
 * own chats: three taken at 10 two days ago after 7 minutes each, three at 12 after 9 minutes.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY_NAMES = ['Måndag', 'Tisdag', 'Onsdag', 'Torsdag', 'Fredag', 'Lördag', 'Söndag'];

/** Two days ago at 10:05 in Stockholm. */
function twoDaysAgoAtTen(): Date {
  const at = new Date(Date.now() - 2 * 24 * HOUR);
  at.setUTCMinutes(5, 0, 0);
  return new Date(at.getTime() + (10 - stockholmWeekHour(at).hour) * HOUR);
}

async function recordTakenChats(at: Date, waitedMin: number) {
  const { db, close } = openDatabase(e2eDatabaseUrl('barn'));
  try {
    const channel = await db
      .selectFrom('channels')
      .select('id')
      .where('system_type', '=', 'chat')
      .executeTakeFirstOrThrow();
    for (let i = 0; i < 3; i++) {
      await db
        .insertInto('conversations')
        .values(
          conversationRow({
            channel_id: channel.id,
            system_type: 'chat',
            subject: 'Chatt',
            state: 'Resolved',
            logged_date: at.toISOString(),
            live_since: new Date(at.getTime() + waitedMin * MINUTE).toISOString(),
          }),
        )
        .execute();
    }
  } finally {
    await close();
  }
}

test('a queued child reads when it is calm, and reads it again offline from the kept copy', async ({
  browser,
  request,
}) => {
  test.setTimeout(60_000);
  const ten = twoDaysAgoAtTen();
  await recordTakenChats(ten, 7);
  await recordTakenChats(new Date(ten.getTime() + 2 * HOUR), 9);
  const day = DAY_NAMES[stockholmWeekHour(ten).weekday]!;

  const proxy = await startFaultProxy({ target: test.info().project.use.baseURL! });
  const context = await browser.newContext({ baseURL: proxy.origin, viewport: { width: 360, height: 640 } });
  try {
    const chat = new ChildChatPage(await context.newPage());
    await chat.logIn(await registerChild(request, 'lugnet'));
    await chat.startChat();
    await chat.expectInQueue();

    const calm = chat.page.getByRole('dialog', { name: 'När är det lugnast?' });
    const expectDay = async () => {
      await calm.getByRole('button', { name: day }).click();
      await expect(calm.getByRole('button', { name: day })).toHaveAttribute('aria-pressed', 'true');
      const table = calm.getByRole('table', { name: `Vanlig väntetid på ${day.toLowerCase()}ar` });
      const row = (hours: string) => table.getByRole('row', { name: new RegExp(`^${hours} `) });
      await expect(row('10-11')).toContainText('7 minuter');
      await expect(row('11-12')).toContainText('För lite underlag');
      await expect(row('12-13')).toContainText('9 minuter');
      await expect(calm.getByText(/^Oftast kortast väntetid: \p{L}+ \d+-\d+$/u)).toBeVisible();
    };

    await chat.dialog.getByRole('button', { name: 'När är det lugnast?' }).click();
    await expect(calm).toBeVisible();
    await expectDay();
    await keepScreenshot(chat.page, test.info(), 'calm-times-360.png');
    expect(await violationsAtBothWidths(chat.page, 'dialog[open]')).toEqual([]);
    await calm.getByRole('button', { name: 'Stäng' }).click();
    await expect(calm).toBeHidden();

    // The network goes: the worker cannot fetch them again, so the window shows the copy it kept.
    proxy.offline();
    await context.setOffline(true);
    await chat.dialog.getByRole('button', { name: 'När är det lugnast?' }).click();
    await expect(calm.getByText(/^Du ser väntetiderna från /)).toBeVisible();
    await expectDay();
    await keepScreenshot(chat.page, test.info(), 'calm-times-offline-360.png');
  } finally {
    proxy.online();
    await context.close();
    await proxy.close();
  }
});
