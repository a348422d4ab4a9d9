import './page-dom.ts';
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { hideChatWindow } from '../../src/one-to-one-chat/chat-store.ts';
import { ChildStartPage } from '../../src/start/child-start-page.tsx';
import { api } from '../../harness/test-server.ts';
import { createWorker, useWorkerTestServer } from '../worker/worker-fixture.ts';
import { connectUi, renderWithData, type UiConnection } from './worker-connection.tsx';

/** The child start page's chat card against the real worker core and server, with a network to cut. */
const env = useWorkerTestServer();
const connections: UiConnection[] = [];
afterEach(async () => {
  cleanup();
  hideChatWindow();
  await Promise.all(connections.splice(0).map((c) => c.dispose()));
});

const PASSWORD = 'blå-ballong-73';
const OFFLINE_NOTICE = 'Du verkar sakna internetuppkoppling. Försök igen när du är uppkopplad.';

const DEVICE = { userAgent: 'vitest', platform: 'Linux', installed: false };

async function registeredChild(): Promise<string> {
  const username = `barn-${randomUUID().slice(0, 8)}`;
  const res = await api(env.server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: PASSWORD, properties: { birthYear: '2012', gender: 'male' } },
  });
  expect(res.status).toBe(201);
  return username;
}

/** A fresh child, signed in, on the start page; `network.up = false` makes every request fail. */
async function childOnStartPage() {
  const username = await registeredChild();
  const network = { up: true };
  const connection = await connectUi(env.server, username, PASSWORD, {
    fetch: (input, init) =>
      network.up ? fetch(input, init) : Promise.reject(new TypeError('Failed to fetch')),
  });
  connections.push(connection);
  renderWithData(env.server, connection, <ChildStartPage prompt={null} />);
  const start = await screen.findByRole<HTMLButtonElement>('button', { name: 'Starta en chatt' });
  await waitFor(() => expect(start.disabled).toBe(false));
  return { network, start };
}

describe('starting a chat from the start page without a network', () => {
  it('takes the offline notice away once the browser is online again', async () => {
    const { network, start } = await childOnStartPage();
    network.up = false;
    await userEvent.click(start);
    expect((await screen.findByRole('alert')).textContent).toBe(OFFLINE_NOTICE);

    network.up = true;
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps the notice while offline, and a later start that works takes it away', async () => {
    const { network, start } = await childOnStartPage();
    network.up = false;
    await userEvent.click(start);
    expect((await screen.findByRole('alert')).textContent).toBe(OFFLINE_NOTICE);
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    expect(screen.getByRole('alert').textContent).toBe(OFFLINE_NOTICE);

    network.up = true;
    await userEvent.click(start);
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });
});

describe('the way to emergency help', () => {
  it("offers 'Är det akut? Ring 112.' as a phone link on the signed-in start page", async () => {
    await childOnStartPage();
    const link = screen.getByRole<HTMLAnchorElement>('link', { name: 'Är det akut? Ring 112.' });
    expect(link.getAttribute('href')).toBe('tel:112');
  });
});

/** Every text the start page's chat card showed, from the first render on, each change once. */
function recordChatCard(): string[] {
  const texts: string[] = [];
  const check = () => {
    const card = document.querySelector('[aria-labelledby="start-chat-heading"]');
    const text = card?.textContent ?? '';
    if (card && texts.at(-1) !== text) texts.push(text);
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  onTestFinished(() => observer.disconnect());
  return texts;
}

const offersStart = (text: string) => text.includes('Starta en chatt') || text.includes('Startar chatten');

describe('the chat card of a child with a chat going on', () => {
  it('never offers to start a chat while the chat in the queue is read, and then offers to open it', async () => {
    const username = await registeredChild();
    const connection = await connectUi(env.server, username, PASSWORD);
    connections.push(connection);
    const started = await connection.access.api.startChat(null, DEVICE);
    expect(started.ok).toBe(true);

    const texts = recordChatCard();
    renderWithData(env.server, connection, <ChildStartPage prompt={null} />);
    await screen.findByRole('button', { name: 'Öppna chatten' });
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.filter(offersStart)).toEqual([]);
    expect(screen.getByRole('status').textContent).toContain('Du står i kö för att chatta.');
  });

  it('never offers to start one when the chat was started on another device, and shows that one', async () => {
    const username = await registeredChild();
    const connection = await connectUi(env.server, username, PASSWORD);
    connections.push(connection);
    // This device's resume at sign-in found no chat; then the child starts one on another device.
    await connection.access.api.resumeChat();
    const other = await createWorker(env.server);
    env.fixtures.push(other);
    await other.worker.start(true);
    expect((await other.worker.login(username, PASSWORD)).ok).toBe(true);
    expect((await other.worker.commands.startChat(null, DEVICE)).ok).toBe(true);

    const texts = recordChatCard();
    renderWithData(env.server, connection, <ChildStartPage prompt={null} />);
    await screen.findByRole('button', { name: 'Öppna chatten' }, { timeout: 10_000 });
    expect(texts.filter(offersStart)).toEqual([]);
  });

  it('offers to start a chat once the server said none is going on', async () => {
    const { start } = await childOnStartPage();
    expect(start.textContent).toBe('Starta en chatt');
    expect(screen.queryByRole('button', { name: 'Öppna chatten' })).toBeNull();
  });
});
