import { expect, test, type APIRequestContext, type Browser, type BrowserContext } from './support/test.ts';
import { childToken, registerChild, type ChildAccount } from '../harness/actors/child-account.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';
import { ThreadPage } from '../harness/page-models/thread-page.ts';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.ts';

/**
 * A child on a bad network, through the project's fault proxy: Playwright's own network emulation
 * reaches neither a SharedWorker's requests nor its sockets, the proxy cuts them all. Every test runs
 * with the SharedWorker and with the fallback of browsers without it (one dedicated worker per tab,
 * the hub held by the tab that won the `portal-hub-leader` lock).
 */
const MODES = ['SharedWorker', 'fallback'] as const;

/**
 * How long these tests let a missed message take once a lying line is back. The targets themselves
 * (on screen within 2 s of a silent loss, within 3 s after a flap) are speed targets: `npm run
 * bench:flaky` and `npm run bench:flaps` measure them over 20 outages and docs/benchmark-results.md
 * reports them; a browser test on a busy host cannot hold them to the millisecond. This bound still
 * fails without the liveness check, since SignalR alone waits out its 30 s server timeout. Each
 * test records the waits it saw as an annotation.
 */
const BACK_WITHIN_MS = 10_000;
type Mode = (typeof MODES)[number];

let proxy: FaultProxy;
test.beforeAll(async () => {
  proxy = await startFaultProxy({ target: test.info().project.use.baseURL! });
});
test.afterEach(() => {
  proxy.clearRules();
  proxy.online();
  proxy.speak();
});
test.afterAll(async () => proxy?.close());

/** Records a measured wait on the test's report, for the reader; the target is the benchmark's. */
function wait(what: string, ms: number): void {
  test.info().annotations.push({ type: 'wait', description: `${what}: ${ms} ms` });
}

async function childContext(browser: Browser, mode: Mode): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: proxy.origin });
  if (mode === 'fallback') await context.addInitScript(() => Reflect.deleteProperty(window, 'SharedWorker'));
  return context;
}

/** The network goes: the proxy drops every socket, and the pages are told they are offline. */
async function networkDown(context: BrowserContext) {
  proxy.offline();
  await context.setOffline(true);
}

async function networkUp(context: BrowserContext) {
  proxy.online();
  await context.setOffline(false);
}

/** A fresh child, in a browser context of `mode`, in a live chat with the demo counsellor in its first tab. */
async function liveChat(browser: Browser, mode: Mode, request: APIRequestContext) {
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.emptyQueue();
  const context = await childContext(browser, mode);
  const account = await registerChild(request, 'natet');
  const chat = new ChildChatPage(await context.newPage());
  await chat.logIn(account);
  await chat.startChat();
  await chat.expectInQueue();
  const id = await counsellor.waitingChat();
  await counsellor.accept(id);
  await counsellor.write(id, 'Hej! Jag heter Kim.');
  await chat.expectMessage('Hej! Jag heter Kim.');
  await chat.expectActive();
  return { context, counsellor, account, chat, id };
}

/** Another tab of the same child with the chat window open. */
async function anotherTab(context: BrowserContext): Promise<ChildChatPage> {
  const chat = new ChildChatPage(await context.newPage());
  await chat.page.goto('/');
  await expect(chat.logoutButton).toBeVisible();
  if (!(await chat.dialog.isVisible())) await chat.minimizedBar.click();
  await chat.expectMessage('Hej! Jag heter Kim.');
  return chat;
}

/** A mail thread of the child's, written through the API: a second conversation. */
async function mailThread(request: APIRequestContext, account: ChildAccount): Promise<number> {
  const token = await childToken(request, account);
  const res = await request.post('/portal/mail', {
    headers: { Authorization: `Bearer ${token}`, 'X-App-Variant': 'Barn' },
    data: { subject: 'Hemma', text: 'Det är bråkigt hemma.', properties: {} },
  });
  if (!res.ok()) throw new Error(`mail answered ${res.status()}`);
  return ((await res.json()) as { id: number }).id;
}

for (const mode of MODES) {
  test.describe(`with ${mode}`, () => {
    test('the tab holding the connection closes while offline; back online a counsellor message arrives within 5 s', async ({
      browser,
      request,
    }) => {
      test.setTimeout(90_000);
      const { context, counsellor, chat, id } = await liveChat(browser, mode, request);
      const second = await anotherTab(context);
      await anotherTab(context);

      await networkDown(context);
      // The first tab holds the `portal-hub-leader` lock in the fallback: another tab's worker takes
      // it over while the network is still down.
      await chat.page.close();
      if (mode === 'fallback') {
        await expect
          .poll(() =>
            second.page.evaluate(async () => {
              const { held = [], pending = [] } = await navigator.locks.query();
              const leader = (lock: LockInfo) => lock.name === 'portal-hub-leader';
              return `${held.filter(leader).length} held, ${pending.filter(leader).length} waiting`;
            }),
          )
          .toBe('1 held, 1 waiting');
      }
      // The network stays down a while after the hand-over: the scenario, not a wait for an event.
      await second.page.waitForTimeout(3000);
      await networkUp(context);
      await counsellor.write(id, 'Är du kvar?');
      await expect(second.message('Är du kvar?')).toBeVisible({ timeout: 5000 });
      await context.close();
    });

    test('a hanging send does not hold up another conversation, waits for the network, then goes once', async ({
      browser,
      request,
    }) => {
      test.setTimeout(90_000);
      const { context, counsellor, account, chat, id } = await liveChat(browser, mode, request);
      const thread = new ThreadPage(await context.newPage());
      await thread.page.goto(`/mina-sidor/inlagg/${await mailThread(request, account)}`);
      await expect(thread.heading).toHaveText('Hemma');

      const hang = proxy.addRule({
        method: 'POST',
        path: '/portal/conversationmessage',
        action: 'hang',
        times: 1,
      });
      const arrived = proxy.waitForRequest({ method: 'POST', path: '/portal/conversationmessage' });
      await chat.send('Det här fastnar');
      await arrived;
      await expect(chat.message('Det här fastnar')).toContainText('Skickar...');

      // The other conversation's answer goes at once, while the chat message's request still hangs.
      await thread.answer('Det här går fram');
      await expect(thread.message('Det här går fram')).toContainText('Skickat', { timeout: 5000 });
      await expect(chat.message('Det här fastnar')).not.toContainText('Skickat');

      // Given up after the request timeout (10 s): the line is checked at once and, found working,
      // the message is sent again at once, and once.
      await expect(chat.message('Det här fastnar')).toContainText('Skickat', { timeout: 15_000 });
      expect(hang.hits).toBe(1);
      const onServer = (await counsellor.messages(id)).filter((m) => m.message === 'Det här fastnar');
      expect(onServer).toHaveLength(1);
      await context.close();
    });

    test('a counsellor message written during a 5 s outage shows within 2 s of the network returning', async ({
      browser,
      request,
    }) => {
      test.setTimeout(90_000);
      const { context, counsellor, chat, id } = await liveChat(browser, mode, request);

      await networkDown(context);
      await counsellor.write(id, 'Skrivet under avbrottet');
      // The outage itself: five seconds without a network is the scenario, not a wait for an event.
      await chat.page.waitForTimeout(5000);
      await expect(chat.message('Skrivet under avbrottet')).toHaveCount(0);
      await networkUp(context);
      await expect(chat.message('Skrivet under avbrottet')).toBeVisible({ timeout: 2000 });
      await context.close();
    });

    test('after a silent loss (sockets dead, the browser still online) the missed message shows once the line is back', async ({
      browser,
      request,
    }) => {
      test.setTimeout(90_000);
      const { context, counsellor, chat, id } = await liveChat(browser, mode, request);
      const trouble = chat.dialog.getByText('Internetuppkopplingen verkar svajig.', { exact: false });

      proxy.silence();
      await counsellor.write(id, 'Skrivet i tystnaden');
      // The loss itself: eight seconds of a dead line is the scenario. SignalR alone would still say
      // connected; the liveness check has found it, and the banner says so.
      await expect(trouble).toBeVisible({ timeout: BACK_WITHIN_MS });
      await expect(chat.message('Skrivet i tystnaden')).toHaveCount(0);
      const back = Date.now();
      proxy.speak();
      await expect(chat.message('Skrivet i tystnaden')).toBeVisible({ timeout: BACK_WITHIN_MS });
      wait('on screen after the silent loss', Date.now() - back);
      // Truthful: the banner goes once the connection works again.
      await expect(trouble).toBeHidden({ timeout: BACK_WITHIN_MS });
      await counsellor.write(id, 'Efter tystnaden');
      await expect(chat.message('Efter tystnaden')).toBeVisible({ timeout: BACK_WITHIN_MS });
      await context.close();
    });

    test('a line flapping for 2 s: each missed message shows once it is back', async ({
      browser,
      request,
    }) => {
      test.setTimeout(120_000);
      const { context, counsellor, chat, id } = await liveChat(browser, mode, request);
      for (const round of [1, 2, 3]) {
        proxy.silence();
        await counsellor.write(id, `Fladder ${round}`);
        // Two seconds without a line: the scenario, not a wait for an event.
        await chat.page.waitForTimeout(2000);
        const back = Date.now();
        proxy.speak();
        await expect(chat.message(`Fladder ${round}`)).toBeVisible({ timeout: BACK_WITHIN_MS });
        wait(`on screen after flap ${round}`, Date.now() - back);
      }
      await context.close();
    });

    test('a line flapping every 2 to 5 s while both write loses, doubles and reorders nothing', async ({
      browser,
      request,
    }) => {
      test.setTimeout(150_000);
      const { context, counsellor, chat, id } = await liveChat(browser, mode, request);
      // Lengths of the dead and the live spells, in seconds: a fixed sequence, so a run repeats.
      const spells = [
        [2, 3],
        [4, 2],
        [3, 5],
        [5, 2],
        [2, 4],
      ] as const;
      for (const [round, [dead, live]] of spells.entries()) {
        proxy.silence();
        await chat.send(`Barnet ${round}`);
        await counsellor.write(id, `Kuratorn ${round}`);
        // The dead spell itself: the scenario, not a wait for an event.
        await chat.page.waitForTimeout(dead * 1000);
        const back = Date.now();
        proxy.speak();
        await expect(chat.message(`Kuratorn ${round}`)).toBeVisible({ timeout: BACK_WITHIN_MS });
        wait(`on screen after spell ${round}`, Date.now() - back);
        await expect(chat.message(`Barnet ${round}`)).toContainText('Skickat', { timeout: BACK_WITHIN_MS });
        await chat.page.waitForTimeout(live * 1000);
      }
      // Nothing lost, nothing twice, nothing out of order: on the server...
      const written = (await counsellor.messages(id)).map((m) => m.message);
      const mine = written.filter((m) => m.startsWith('Barnet '));
      expect(mine).toEqual(spells.map((_, round) => `Barnet ${round}`));
      // ...and on the child's screen.
      const shown = await chat.messages.getByRole('listitem').allInnerTexts();
      const theirs = shown.flatMap((text) => text.match(/Kuratorn \d/g) ?? []);
      expect(theirs).toEqual(spells.map((_, round) => `Kuratorn ${round}`));
      await context.close();
    });

    test('a server answering only 500 is told like a hang within 15 s, and the message goes within 2 s of recovery', async ({
      browser,
      request,
    }) => {
      test.setTimeout(90_000);
      const { context, counsellor, chat, id } = await liveChat(browser, mode, request);
      const failing = proxy.addRule({ path: /^\/(portal|hubs|healthz)/, action: 'status', status: 500 });
      await chat.send('Medan servern krånglar');
      const mine = chat.message('Medan servern krånglar');
      await expect(mine.getByText('Väntar på nätet')).toBeVisible({ timeout: 15_000 });
      await expect(
        chat.dialog.getByText(
          'Tjänsten svarar inte just nu. Det du skriver skickas så snart den svarar igen.',
        ),
      ).toBeVisible({ timeout: 15_000 });
      failing.remove();
      const recovered = Date.now();
      await expect
        .poll(
          async () => (await counsellor.messages(id)).some((m) => m.message === 'Medan servern krånglar'),
          {
            timeout: 2000,
          },
        )
        .toBe(true);
      expect(Date.now() - recovered).toBeLessThanOrEqual(2000);
      await expect(mine.getByText('Skickat')).toBeVisible({ timeout: 2000 });
      await context.close();
    });
  });
}
