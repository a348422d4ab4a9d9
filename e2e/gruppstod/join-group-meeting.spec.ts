import { expect, test, type Browser } from '../support/test.ts';
import { GroupChatWindow } from '../../harness/page-models/group-chat-window.ts';
import { GroupStartPage } from '../../harness/page-models/group-start-page.ts';
import { MeetingDetailPage } from '../../harness/page-models/meeting-detail-page.ts';

const SUBJECT = 'Träff för tre deltagare';
const CODES = ['DEMOKOD-0001', 'DEMOKOD-0002', 'DEMOKOD-0003'] as const;

async function participant(browser: Browser, code: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const start = new GroupStartPage(page);
  await start.logIn(code);
  return {
    context,
    page,
    start,
    detail: new MeetingDetailPage(page),
    chat: new GroupChatWindow(page, SUBJECT),
  };
}

// Three participants in three browsers and a group leader through the staff API: the whole meeting.
test('three participants join a group meeting, chat, come and go, and see it end', async ({
  browser,
  request,
  groupLeader: leader,
}) => {
  test.setTimeout(120_000);
  const [a, b, c] = await Promise.all(CODES.map((code) => participant(browser, code)));
  const all = [a!, b!, c!];

  // Each participant's worker holds its hub connection before the leader acts.
  await expect
    .poll(async () =>
      Number(/^hub_connections (\d+)$/m.exec(await (await request.get('/metrics')).text())?.[1]),
    )
    .toBeGreaterThanOrEqual(3);

  // A new meeting appears under 'Kommande träffar' and moves to 'Pågående träffar' when it starts.
  const meetingId = await leader.createMeeting(SUBJECT);
  for (const p of all) await expect(p.start.upcoming.getByText(SUBJECT)).toBeVisible({ timeout: 15_000 });
  await leader.startMeeting(meetingId);
  for (const p of all) {
    await expect(p.start.inProgress.getByText(SUBJECT)).toBeVisible({ timeout: 15_000 });
    await expect(p.start.upcoming.getByText(SUBJECT)).toHaveCount(0);
  }

  // All three join.
  for (const p of all) {
    await p.start
      .cards(p.start.inProgress)
      .filter({ hasText: SUBJECT })
      .getByRole('link', { name: /^Gå med/ })
      .click();
    await expect(p.detail.title).toHaveText(SUBJECT);
    await p.detail.openChat(SUBJECT);
    await expect(p.chat.status).toHaveText('Chatten börjar strax');
  }
  await leader.write(meetingId, 'Välkomna alla tre!');
  for (const p of all)
    await expect(p.chat.message('Gruppchatten har startat')).toBeVisible({ timeout: 15_000 });

  // Typing crosses to the others.
  await a!.chat.input.fill('Hej');
  for (const p of [b!, c!]) await expect(p.chat.typing('Alex')).toBeVisible({ timeout: 10_000 });

  // Messages cross in order.
  await a!.chat.send('Hej från Alex');
  await b!.chat.send('Hej från Robin');
  await c!.chat.send('Hej från Sam');
  const order = ['Välkomna alla tre!', 'Hej från Alex', 'Hej från Robin', 'Hej från Sam'];
  for (const p of all) {
    for (const text of order) await expect(p.chat.message(text)).toHaveCount(1, { timeout: 15_000 });
    const shown = await p.chat.messages.innerText();
    expect(order.map((t) => shown.indexOf(t))).toEqual(
      [...order.map((t) => shown.indexOf(t))].sort((x, y) => x - y),
    );
  }

  // A message written offline arrives exactly once after the connection returns.
  await a!.context.setOffline(true);
  await a!.chat.send('Skrivet utan nät');
  await a!.context.setOffline(false);
  for (const p of [b!, c!])
    await expect(p.chat.message('Skrivet utan nät')).toHaveCount(1, { timeout: 30_000 });
  await expect(a!.chat.message('Skrivet utan nät')).toHaveCount(1);
  expect((await leader.chatMessages(meetingId)).filter((m) => m === 'Skrivet utan nät')).toHaveLength(1);

  // Presence: Sam leaves the chat, and Robin sees Sam's dot change.
  await b!.chat.minimize();
  await b!.detail.participants.click();
  const sam = b!.page.getByRole('main').getByRole('listitem').filter({ hasText: 'Sam' });
  await expect(sam).toContainText('Ansluten', { timeout: 15_000 });
  await c!.chat.leave();
  await expect(sam).toContainText('Frånkopplad', { timeout: 15_000 });

  // The leader ends the meeting: 'Chatten är avslutad', then the history.
  await leader.endMeeting(meetingId);
  await a!.chat.expectEnded({ timeout: 15_000 });
  // An ended chat closes without the leave question.
  await a!.chat.closeButton.click();
  await expect(a!.chat.dialog).toBeHidden();
  await expect(a!.detail.showHistoryButton).toBeVisible({ timeout: 15_000 });

  await Promise.all(all.map((p) => p.context.close()));
});
