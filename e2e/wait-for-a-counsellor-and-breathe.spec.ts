import { expect, test, type Page, type TestInfo } from './support/test.ts';
import { registerChild } from '../harness/actors/child-account.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';

/** The waiting window as the child sees it, kept with the test's results for a person to look at. */
async function keepScreenshot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** The window fits the phone's width: nothing runs off to the side. */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => {
    const dialog = document.querySelector('dialog[open]');
    return dialog ? dialog.scrollWidth - dialog.clientWidth : -1;
  });
  expect(overflow).toBe(0);
}

test("a child waiting for a counsellor breathes with 'Andas med mig', and the chat takes over the moment the counsellor writes", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 360, height: 740 });
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.emptyQueue();
  const chat = new ChildChatPage(page);
  await chat.logIn(await registerChild(request, 'andas'));
  await chat.startChat();
  await chat.expectInQueue(1);

  const exercise = chat.dialog.getByRole('region', { name: 'Medan du väntar' });
  const said = exercise.locator('[aria-live="polite"]');
  const circle = exercise.getByTestId('breathing-circle');
  await exercise.getByRole('button', { name: 'Andas med mig' }).click();
  await expect(said).toHaveText('Andas in ...');
  await expect(exercise.getByRole('button', { name: 'Sluta andas' })).toBeFocused();
  await expect(circle).toBeVisible();
  // The queue place stays in view above the exercise.
  await expect(chat.status).toContainText('Köplats: 1');
  await expect(chat.status).toBeInViewport();
  await expectNoSidewaysScroll(page);
  await keepScreenshot(page, testInfo, 'waiting-360px-with-motion');

  // The system asks for less motion: the circle goes, the words go on alone.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await expect(circle).toHaveCount(0);
  await expect(said).toHaveText(/^(Andas in|Håll andan|Andas ut) \.\.\.$/);
  await expect(said).toHaveText('Håll andan ...', { timeout: 10_000 });
  await expect(chat.status).toContainText('Köplats: 1');
  await expectNoSidewaysScroll(page);
  await keepScreenshot(page, testInfo, 'waiting-360px-reduced-motion');
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await expect(circle).toBeVisible();

  const id = await counsellor.waitingChat();
  try {
    await counsellor.accept(id);
    await counsellor.write(id, 'Hej! Jag heter Kim och är kurator.');
    await chat.expectActive();
    // The same render that turns the chat live removes the exercise: no wait for it to go.
    expect(await exercise.count()).toBe(0);
    expect(await chat.dialog.getByRole('button', { name: 'Andas med mig' }).count()).toBe(0);
    await chat.expectMessage('Hej! Jag heter Kim och är kurator.');
    await expect(chat.messages).toContainText('Du har nu kopplats fram till en kurator');
  } finally {
    await counsellor.resolve(id);
  }
});
