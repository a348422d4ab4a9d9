import { expect, test } from '../support/test.ts';
import { registerChild } from '../../harness/actors/child-account.ts';
import { Counsellor } from '../../harness/actors/counsellor.ts';
import { logInChild } from '../../harness/page-models/child-login.ts';
import { ChildChatPage } from '../../harness/page-models/child-chat-page.ts';

test('in Peers a started chat opens minimised, and the bar opens it', async ({ page, request }) => {
  const account = await registerChild(request, 'peers-chatt');
  await logInChild(page, account);
  const child = new ChildChatPage(page);

  await child.startButton.click();
  // SPEC §2: Peers opens the chat minimised: the board stays in view, the bar says where the child is.
  await expect(child.minimizedBar).toBeVisible();
  await expect(child.dialog).toBeHidden();
  await child.minimizedBar.click();
  await expect(child.dialog).toBeVisible();
  await child.expectInQueue();

  // Leave the queue to the next test as it was.
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.emptyQueue();
});
