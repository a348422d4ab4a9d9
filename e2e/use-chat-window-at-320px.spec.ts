import { expect, test } from './support/test.ts';
import { registerChild } from '../harness/actors/child-account.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';

const QUEUE_PLACEHOLDER = 'Du väntar på din tur. Kom tillbaka hit var 5:e minut för att stå kvar i kön';

test('at 320 px the queue placeholder is readable in full and minimise is a drawn icon with a name', async ({
  browser,
  request,
}) => {
  const context = await browser.newContext({ viewport: { width: 320, height: 640 } });
  const chat = new ChildChatPage(await context.newPage());
  await chat.logIn(await registerChild(request, 'smal'));
  await chat.startChat();
  await chat.expectInQueue();
  await expect(chat.input).toHaveAttribute('placeholder', QUEUE_PLACEHOLDER);

  // The placeholder wraps onto as many lines as it needs: the textarea is as tall as its text.
  const fit = await chat.input.evaluate((el: HTMLTextAreaElement) => {
    const shown = el.clientHeight;
    el.value = el.placeholder;
    const needed = el.scrollHeight;
    el.value = '';
    return { shown, needed };
  });
  expect(fit.needed).toBeGreaterThan(50); // more than one line at this width
  expect(fit.shown).toBeGreaterThanOrEqual(fit.needed);

  // Minimise has its Swedish name and an icon taller than a line (it read as a stray '_').
  const minimize = chat.dialog.getByRole('button', { name: 'Minimera chatten' });
  await expect(minimize).toBeVisible();
  const iconHeight = await minimize.locator('svg').evaluate((svg: SVGSVGElement) => svg.getBBox().height);
  expect(iconHeight).toBeGreaterThan(6);

  await chat.leaveQueue();
  await context.close();
});
