import { expect, test, type Browser, type CDPSession } from './support/test.ts';
import { childToken, registerChild } from '../harness/actors/child-account.ts';
import { logInChild } from '../harness/page-models/child-login.ts';
import { ChildServerView } from '../harness/actors/child-server-view.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { ThreadPage } from '../harness/page-models/thread-page.ts';

/**
 * The data worker is a SharedWorker: Playwright neither routes its requests nor emulates its network,
 * so the test talks to it through the browser's DevTools protocol as a target of its own.
 */
class SharedWorkerTarget {
  private nextId = 1;

  private constructor(
    private readonly browser: CDPSession,
    readonly targetId: string,
    private readonly sessionId: string,
  ) {}

  static async find(browser: Browser): Promise<SharedWorkerTarget> {
    const session = await browser.newBrowserCDPSession();
    const { targetInfos } = (await session.send('Target.getTargets')) as {
      targetInfos: { targetId: string; type: string }[];
    };
    const worker = targetInfos.find((t) => t.type === 'shared_worker');
    if (!worker) throw new Error('no shared worker running');
    const { sessionId } = (await session.send('Target.attachToTarget', {
      targetId: worker.targetId,
      flatten: false,
    })) as { sessionId: string };
    return new SharedWorkerTarget(session, worker.targetId, sessionId);
  }

  /** Sends a command to the worker itself (not to the browser). */
  private async send(method: string, params: object = {}): Promise<void> {
    const message = JSON.stringify({ id: this.nextId++, method, params });
    await this.browser.send('Target.sendMessageToTarget', { sessionId: this.sessionId, message });
  }

  /** The worker's requests fail as without a network: what it sends waits in the outbox. */
  async goOffline(): Promise<void> {
    await this.send('Network.enable');
    await this.send('Network.emulateNetworkConditions', {
      offline: true,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  }

  /**
   * Ends the worker as a crash would: its tabs are not told. Chromium keeps the DevTools target of a
   * shared worker for its next start, so the session (and its network emulation) is let go too.
   */
  async close(): Promise<void> {
    await this.browser.send('Target.closeTarget', { targetId: this.targetId });
    await this.browser.send('Target.detachFromTarget', { sessionId: this.sessionId }).catch(() => undefined);
    await this.browser.detach();
  }
}

test('a reply that waits while the data worker is closed is sent once, without reloading the page', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const account = await registerChild(request, 'omstart');
  const server = new ChildServerView(request, await childToken(request, account));
  const mail = await server.sendMail('När appen startar om', 'Hej, jag har en fråga.');
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.write(mail.id, 'Hej! Vad bra att du skriver.');

  await logInChild(page, account);
  await page.goto(`/mina-sidor/inlagg/${mail.id}`);
  const thread = new ThreadPage(page);
  await expect(thread.message('Vad bra att du skriver')).toBeVisible();
  // Gone after a reload: it tells that the page recovered without one.
  await page.evaluate(() => Reflect.set(window, 'samePage', true));

  const worker = await SharedWorkerTarget.find(browser);
  await worker.goOffline();
  const reply = 'Jag skrev det här medan appen startade om.';
  await thread.answer(reply);
  // Its attempt got no answer: it says it waits for the network.
  await expect(thread.message(reply)).toContainText('Väntar på nätet');
  await worker.close();

  // The tab notices within a heartbeat or two, starts a new worker, and that one sends the outbox.
  await expect(thread.message(reply)).toContainText('Skickat', { timeout: 30_000 });
  await expect
    .poll(async () => (await counsellor.messages(mail.id)).filter((m) => m.message === reply).length)
    .toBe(1);

  // The new worker follows the open thread again: an answer shows without reloading.
  await counsellor.write(mail.id, 'Hej igen! Ditt meddelande kom fram.');
  await expect(thread.message('Ditt meddelande kom fram.')).toBeVisible({ timeout: 15_000 });
  expect(await page.evaluate(() => Reflect.get(window, 'samePage'))).toBe(true);
  // Sent once, also after everything settled.
  expect((await counsellor.messages(mail.id)).filter((m) => m.message === reply)).toHaveLength(1);
});
