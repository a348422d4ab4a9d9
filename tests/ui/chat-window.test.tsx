import './page-dom.ts';
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { useConversation } from '../../src/data/meeting-and-chat-hooks.ts';
import { useChatPages } from '../../src/data/chat-pages.ts';
import { hideChatWindow, showChatWindow } from '../../src/one-to-one-chat/chat-store.ts';
import { BOT_MESSAGE_DELAYS_MS } from '../../contract/timings.ts';
import { ChildChatHost } from '../../src/one-to-one-chat/child-chat-host.tsx';
import { api } from '../../harness/test-server.ts';
import { CHAT_LIMIT_REACHED_TEXT, endChatsPastLimit } from '../../server/conversations/chat-limit.ts';
import { conversationChanged } from '../../server/conversations/changed.ts';
import { useCounsellorTestEnv } from '../worker/child-helpers.ts';
import { connectUi, renderWithData, type UiConnection } from './worker-connection.tsx';

/**
 * The child's one-to-one chat window, driven as a child uses it, against the real worker core and
 * the real server; the demo counsellor acts through the staff API.
 */
const env = useCounsellorTestEnv();
const connections: UiConnection[] = [];
afterEach(async () => {
  cleanup();
  hideChatWindow();
  await Promise.all(connections.splice(0).map((c) => c.dispose()));
  vi.useRealTimers();
});

const PASSWORD = 'blå-ballong-73';
const DEVICE = { userAgent: 'vitest', platform: 'Linux', installed: false };
/** Real-time events cross the server and the hub; generous for a loaded machine. */
const LIVE = { timeout: 15_000 };

/** A fresh child who has started a chat (as 'Starta en chatt' does) and sees its window. */
async function childWithOpenChat(options: { fetch?: typeof fetch } = {}) {
  const username = `barn-${randomUUID().slice(0, 8)}`;
  const res = await api(env.server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: PASSWORD, properties: { birthYear: '2012', gender: 'male' } },
  });
  expect(res.status).toBe(201);
  const connection = await connectUi(env.server, username, PASSWORD, options);
  connections.push(connection);
  const started = await connection.access.api.startChat(null, DEVICE);
  if (!started.ok) throw new Error(`startChat: ${started.code}`);
  renderWithData(env.server, connection, <ChildChatHost />);
  act(() => showChatWindow());
  // The window shows once the chat's rows, which the worker stores from the server, are read.
  const window = await screen.findByRole('dialog', { name: 'Chatt' }, LIVE);
  await within(window).findByText('Du väntar på din tur', {}, LIVE);
  // While waiting, the way to emergency help is in the window itself.
  const emergency = within(window).getByRole('link', { name: 'Är det akut? Ring 112.' });
  expect(emergency.getAttribute('href')).toBe('tel:112');
  return { window, conversationId: started.value };
}

const counsellor = {
  accept: (id: number) =>
    api(env.server.url, `/portal/staff/conversations/${id}/accept`, { token: env.counsellor, body: {} }),
  write: (id: number, content: string) =>
    api(env.server.url, `/portal/staff/conversations/${id}/messages`, {
      token: env.counsellor,
      body: { content },
    }),
  resolve: (id: number) =>
    api(env.server.url, `/portal/staff/conversations/${id}/resolve`, { token: env.counsellor, body: {} }),
  messages: async (id: number) =>
    (
      (await api(env.server.url, `/portal/staff/conversations/${id}/messages`, { token: env.counsellor }))
        .body as { value: { message: string }[] }
    ).value.map((m) => m.message),
};

/** The counsellor takes the chat and says hello; the child's window turns live. */
async function chatWithCounsellor(options: { fetch?: typeof fetch } = {}) {
  const chat = await childWithOpenChat(options);
  await counsellor.accept(chat.conversationId);
  await counsellor.write(chat.conversationId, 'Hej! Jag heter Kim.');
  await within(chat.window).findByText('Hej! Jag heter Kim.', {}, LIVE);
  await within(chat.window).findByText(/^Chatt live/, {}, LIVE);
  expect(within(chat.window).queryByRole('link', { name: 'Är det akut? Ring 112.' })).toBeNull();
  return chat;
}

/** Reads the conversation's counsellor messages as the chat window does, to know they are loaded. */
function AgentMessageCount({ conversationId }: { conversationId: number }) {
  const { rows } = useChatPages(conversationId);
  if (!rows) return null;
  return <p>{`${rows.filter((r) => r.authorKind === 'agent').length} kuratorsmeddelanden`}</p>;
}

/** The end of the chat as the worker stored it, to know the window has it. */
function ChatEnd({ conversationId }: { conversationId: number }) {
  const conversation = useConversation(conversationId);
  return conversation?.limitEndsAt ? <p>{`slut ${conversation.limitEndsAt}`}</p> : null;
}

/** The server moves the chat's end (as if it had gone live earlier) and tells its watchers. */
async function moveChatEnd(conversationId: number, msFromNow: number) {
  await env.server.ctx.db
    .updateTable('conversations')
    .set({ limit_ends_at: new Date(Date.now() + msFromNow).toISOString() })
    .where('id', '=', conversationId)
    .execute();
  await conversationChanged(env.server.ctx, conversationId);
}

/** The queue's bot messages come one by one; the test moves the clock past each delay. */
async function letTheBotsFinish() {
  for (const delay of BOT_MESSAGE_DELAYS_MS) await act(() => vi.advanceTimersByTimeAsync(delay));
}

describe('a child in a chat with a counsellor', () => {
  it('minimises the chat, sees "Nya meddelanden!" when the counsellor writes, and reads it on opening', async () => {
    const user = userEvent.setup();
    const { window, conversationId } = await chatWithCounsellor();

    await user.click(within(window).getByRole('button', { name: 'Minimera chatten' }));
    expect(screen.queryByRole('dialog', { name: 'Chatt' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Aktiv chatt' })).toBeTruthy();

    await counsellor.write(conversationId, 'Hur mår du idag?');
    await user.click(await screen.findByRole('button', { name: 'Nya meddelanden!' }, LIVE));
    const reopened = await screen.findByRole('dialog', { name: 'Chatt' });
    // Read as the window opens (a minimised window reads no message: src/data/chat-pages.ts).
    expect(await within(reopened).findByText('Hur mår du idag?')).toBeTruthy();

    // Seen once opened: minimised again, the bar no longer says there is something new.
    await user.click(within(reopened).getByRole('button', { name: 'Minimera chatten' }));
    expect(screen.getByRole('button', { name: 'Aktiv chatt' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Nya meddelanden!' })).toBeNull();
  });

  it('sees a minimised chat the counsellor ended as ended, and no "Nya meddelanden!" after a reload', async () => {
    const user = userEvent.setup();
    const { window, conversationId } = await chatWithCounsellor();
    await user.click(within(window).getByRole('button', { name: 'Minimera chatten' }));

    // The counsellor writes a last message and ends the chat while it is minimised: the bar tells
    // that the chat ended, not that something new waits.
    await counsellor.write(conversationId, 'Hej då, ta hand om dig!');
    await screen.findByRole('button', { name: 'Nya meddelanden!' }, LIVE);
    await counsellor.resolve(conversationId);
    await user.click(await screen.findByRole('button', { name: 'Chatten är avslutad' }, LIVE));

    // Opened: the closed notice and the last message; OK, then minimised again.
    const closed = await screen.findByRole('dialog', { name: 'Chatt avslutad' });
    const reopened = screen.getByRole('dialog', { name: 'Chatt' });
    expect(await within(reopened).findByText('Hej då, ta hand om dig!')).toBeTruthy();
    await user.click(within(closed).getByRole('button', { name: 'OK' }));
    await user.click(within(reopened).getByRole('button', { name: 'Minimera chatten' }));
    expect(screen.getByRole('button', { name: 'Chatten är avslutad' })).toBeTruthy();

    // A reload: the window state starts over (minimised), the chat comes back from the database.
    cleanup();
    hideChatWindow();
    const connection = connections[0];
    if (!connection) throw new Error('no connection');
    renderWithData(env.server, connection, <ChildChatHost />);
    await screen.findByRole('button', { name: 'Chatten är avslutad' });
    // The bar's messages are loaded once another reader, started after it, has them too.
    renderWithData(env.server, connection, <AgentMessageCount conversationId={conversationId} />);
    await screen.findByText('2 kuratorsmeddelanden');
    expect(screen.getByRole('button', { name: 'Chatten är avslutad' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Nya meddelanden!' })).toBeNull();
  });

  it('after a reload of a minimised live chat whose messages were read, the bar says "Aktiv chatt"', async () => {
    const user = userEvent.setup();
    const { window, conversationId } = await chatWithCounsellor();
    await user.click(within(window).getByRole('button', { name: 'Minimera chatten' }));
    expect(screen.getByRole('button', { name: 'Aktiv chatt' })).toBeTruthy();

    cleanup();
    hideChatWindow();
    const connection = connections[0];
    if (!connection) throw new Error('no connection');
    renderWithData(env.server, connection, <ChildChatHost />);
    await screen.findByRole('button', { name: 'Aktiv chatt' });
    renderWithData(env.server, connection, <AgentMessageCount conversationId={conversationId} />);
    await screen.findByText('1 kuratorsmeddelanden');
    expect(screen.getByRole('button', { name: 'Aktiv chatt' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Nya meddelanden!' })).toBeNull();
  });

  it('is told in the "Chatt avslutad" modal when the counsellor ends the chat, and closes it with OK', async () => {
    const user = userEvent.setup();
    const { window, conversationId } = await chatWithCounsellor();
    expect(screen.queryByRole('dialog', { name: 'Chatt avslutad' })).toBeNull();

    await counsellor.resolve(conversationId);
    const closed = await screen.findByRole('dialog', { name: 'Chatt avslutad' }, LIVE);
    expect(
      within(closed).getByText(
        'Det verkar som att chatten har avslutats eller som att vi fått tekniska problem.',
      ),
    ).toBeTruthy();
    expect(within(window).getByText('Chatten är avslutad', { selector: '[role=status]' })).toBeTruthy();

    await user.click(within(closed).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('dialog', { name: 'Chatt avslutad' })).toBeNull();
    expect(within(window).getByRole('button', { name: 'Stäng' })).toBeTruthy();
    expect(
      (within(window).getByRole('textbox', { name: 'Meddelande' }) as HTMLTextAreaElement).disabled,
    ).toBe(true);
  });

  it('ends the chat themselves and is told "Avslutad" instead of the closed-chat modal', async () => {
    const user = userEvent.setup();
    const { window } = await chatWithCounsellor();

    await user.click(within(window).getByRole('button', { name: 'Avsluta' }));
    const confirm = screen.getByRole('dialog', { name: 'Bekräfta' });
    expect(within(confirm).getByText('Är du säker på att du vill avsluta chatten?')).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Ja, avsluta' }));

    const ended = await screen.findByRole('dialog', { name: 'Avslutad' }, LIVE);
    expect(within(ended).getByText('chatten är avslutad')).toBeTruthy();
    await within(window).findByText('Chatten är avslutad', { selector: '[role=status]' }, LIVE);
    expect(screen.queryByRole('dialog', { name: 'Chatt avslutad' })).toBeNull();
  });

  it('sends a message with Enter, with no "Skicka med Enter" choice to turn it off', async () => {
    const user = userEvent.setup();
    const { window, conversationId } = await chatWithCounsellor();
    expect(within(window).queryByRole('checkbox', { name: 'Skicka med Enter' })).toBeNull();

    const input = within(window).getByRole('textbox', { name: 'Meddelande' }) as HTMLTextAreaElement;
    await user.type(input, 'Hej Kim!{Enter}');
    const sent = await within(window).findByText('Skickat', {}, LIVE);
    expect(sent.closest('li')?.textContent).toContain('Hej Kim!');
    expect(input.value).toBe('');
    expect(await counsellor.messages(conversationId)).toContain('Hej Kim!');
  });
});

describe('a child waiting in the queue', () => {
  it('is asked after the welcome messages whether to describe what to chat about, and writes it once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    const { window, conversationId } = await childWithOpenChat();
    const input = within(window).getByRole('textbox', { name: 'Meddelande' }) as HTMLTextAreaElement;
    expect(within(window).queryByText('Vill du beskriva vad du vill chatta om?')).toBeNull();
    expect(input.disabled).toBe(true);

    await letTheBotsFinish();
    const question = within(window).getByRole('group', { name: 'Vill du beskriva vad du vill chatta om?' });
    await user.click(within(question).getByRole('button', { name: 'Ja, det vill jag' }));

    expect(within(window).queryByRole('group')).toBeNull();
    expect(within(window).getByText('Formulera dina tankar (max ett meddelande)')).toBeTruthy();
    expect(input.disabled).toBe(false);
    expect(input.placeholder).toBe('Vad vill du chatta om?');
    await user.type(input, 'Jag vill prata om skolan.');
    await user.click(within(window).getByRole('button', { name: 'Skicka' }));

    const messages = within(within(window).getByRole('list', { name: 'Meddelanden' }));
    const mine = await messages.findByText('Jag vill prata om skolan.', {}, LIVE);
    expect(mine.closest('li')?.textContent).toContain('Dina tankar');
    await messages.findByText('Ditt meddelande har skickats', {}, LIVE);
    expect(input.disabled).toBe(true);
    expect(within(window).queryByText('Formulera dina tankar (max ett meddelande)')).toBeNull();
    await vi.waitFor(async () =>
      expect(await counsellor.messages(conversationId)).toContain('Jag vill prata om skolan.'),
    );
  });

  it('answers no to the question and keeps waiting without writing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    const { window } = await childWithOpenChat();

    await letTheBotsFinish();
    const question = within(window).getByRole('group', { name: 'Vill du beskriva vad du vill chatta om?' });
    await user.click(within(question).getByRole('button', { name: 'Nej, det vill jag inte' }));

    expect(within(window).queryByRole('group')).toBeNull();
    const input = within(window).getByRole('textbox', { name: 'Meddelande' }) as HTMLTextAreaElement;
    expect(input.disabled).toBe(true);
    expect(input.placeholder).toBe(
      'Du väntar på din tur. Kom tillbaka hit var 5:e minut för att stå kvar i kön',
    );
  });
});

describe('a message that does not go through', () => {
  /** The child's message POSTs: through, refused by the server, or without a network. */
  let line: 'through' | 'refused' | 'offline' = 'through';
  const flaky: typeof fetch = (input, init) => {
    const message = init?.method === 'POST' && String(input).endsWith('/portal/conversationmessage');
    if (!message || line === 'through') return fetch(input, init);
    if (line === 'offline') return Promise.reject(new TypeError('Failed to fetch'));
    const body = JSON.stringify({ error: 'forbidden', message: 'Du har inte behörighet.' });
    return Promise.resolve(
      new Response(body, { status: 403, headers: { 'Content-Type': 'application/json' } }),
    );
  };
  afterEach(() => {
    line = 'through';
  });

  /** Writes and sends like the child, and waits until the field is empty and usable again. */
  async function send(window: HTMLElement, text: string) {
    const user = userEvent.setup();
    const input = within(window).getByRole('textbox', { name: 'Meddelande' }) as HTMLTextAreaElement;
    await user.type(input, text);
    await user.click(within(window).getByRole('button', { name: 'Skicka' }));
    await vi.waitFor(() => expect(input.value === '' && !input.disabled).toBe(true));
  }

  /** The bubble of one's own message, found anew each time (it is replaced once sent). */
  const bubble = async (window: HTMLElement, text: string) => {
    const list = within(within(window).getByRole('list', { name: 'Meddelanden' }));
    return within((await list.findByText(text, {}, LIVE)).closest('li')!);
  };

  it("is shown refused with 'Försök igen', which sends it, and 'Ta bort', which removes it", async () => {
    const user = userEvent.setup();
    const { window, conversationId } = await chatWithCounsellor({ fetch: flaky });
    line = 'refused';
    await send(window, 'Första försöket');
    await send(window, 'Det här ångrar jag');
    const refused = await bubble(window, 'Första försöket');
    await refused.findByText('Gick inte att skicka meddelandet', {}, LIVE);
    const regretted = await bubble(window, 'Det här ångrar jag');
    await regretted.findByText('Gick inte att skicka meddelandet', {}, LIVE);
    expect(refused.getByRole('button', { name: 'Ta bort' })).toBeTruthy();

    line = 'through';
    await user.click(refused.getByRole('button', { name: 'Försök igen' }));
    await vi.waitFor(
      async () => expect((await bubble(window, 'Första försöket')).getByText('Skickat')).toBeTruthy(),
      LIVE,
    );
    expect(
      (await bubble(window, 'Första försöket')).queryByRole('button', { name: 'Försök igen' }),
    ).toBeNull();

    await user.click(regretted.getByRole('button', { name: 'Ta bort' }));
    await vi.waitFor(() => expect(within(window).queryByText('Det här ångrar jag')).toBeNull(), LIVE);
    const onServer = await counsellor.messages(conversationId);
    expect(onServer.filter((m) => m === 'Första försöket')).toHaveLength(1);
    expect(onServer).not.toContain('Det här ångrar jag');
  });

  it("says 'Väntar på nätet' while there is no network, not 'Skickar...'", async () => {
    const { window } = await chatWithCounsellor({ fetch: flaky });
    line = 'offline';
    await send(window, 'Skrivet i tunneln');
    const waiting = await bubble(window, 'Skrivet i tunneln');
    await waiting.findByText('Väntar på nätet', {}, LIVE);
    expect(waiting.queryByText('Skickar...')).toBeNull();
    expect(waiting.queryByRole('button', { name: 'Försök igen' })).toBeNull();
  });
});

describe("the live chat's duration (SPEC §2 'Chatt live N minuter')", () => {
  it("counts from the chat's start on the server, whatever this window saw, and a new message does not restart it", async () => {
    const { window, conversationId } = await chatWithCounsellor();
    // As if the counsellor's first message had come 12.5 minutes ago (another tab, before a reload).
    await env.server.ctx.db
      .updateTable('conversations')
      .set({ live_since: new Date(Date.now() - 12.5 * 60_000).toISOString() })
      .where('id', '=', conversationId)
      .execute();
    await conversationChanged(env.server.ctx, conversationId);
    const status = within(window).getByTestId('chat-status');
    await vi.waitFor(() => expect(status.textContent).toBe('Chatt live 12 minuter'), LIVE);

    await counsellor.write(conversationId, 'Är du kvar?');
    await within(window).findByText('Är du kvar?', {}, LIVE);
    expect(status.textContent).toBe('Chatt live 12 minuter');
  });
});

describe('the time left of a live chat (SPEC §9: 45 minutes a day)', () => {
  it('shows "X minuter kvar" in the header in the last 10 minutes only, and the end at the limit', async () => {
    const { window, conversationId } = await chatWithCounsellor();
    const connection = connections[0];
    if (!connection) throw new Error('no connection');
    renderWithData(env.server, connection, <ChatEnd conversationId={conversationId} />);

    // 45 minutes to go: the worker has the end, and the window says nothing of it yet.
    await screen.findByText(/^slut /, {}, LIVE);
    expect(within(window).queryByTestId('chat-time-left')).toBeNull();
    expect(within(window).getByTestId('chat-time-left-announcement').textContent).toBe('');

    // 4.5 minutes to go: '5 minuter kvar' beside the live duration, and read out once.
    await moveChatEnd(conversationId, 4.5 * 60_000);
    expect((await within(window).findByTestId('chat-time-left', {}, LIVE)).textContent).toBe(
      '5 minuter kvar',
    );
    expect(within(window).getByTestId('chat-time-left-announcement').textContent).toBe('5 minuter kvar');
    expect(within(window).getByTestId('chat-status').textContent).toMatch(/^Chatt live \d+ minut/);

    // The time is up: the server ends the chat with its message, as a counsellor's end would.
    await moveChatEnd(conversationId, -1000);
    await endChatsPastLimit(env.server.ctx);
    await within(window).findByText(CHAT_LIMIT_REACHED_TEXT, {}, LIVE);
    await screen.findByRole('dialog', { name: 'Chatt avslutad' }, LIVE);
    expect(within(window).getByTestId('chat-status').textContent).toBe('Chatten är avslutad');
    expect(within(window).queryByTestId('chat-time-left')).toBeNull();
    expect(within(window).getByRole('textbox').getAttribute('placeholder')).toBe('Chatten är avslutad');
  });
});

describe("the counsellor's first words", () => {
  /** What the window shows at once: the queue's status, controls and exercise, or the live chat's. */
  const queueParts = ['Du väntar på din tur', 'Lämna kön', 'Medan du väntar'];

  it("come in the same render as the live chat, though the chat's new state is fetched after them", async () => {
    // The worker hears the message with its hub event and fetches the conversation's new state after
    // it; that fetch is held here, so the message is stored first (as on a slow line).
    let holding = false;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const slowConversation: typeof fetch = async (input, init) => {
      const url = String(input);
      if (holding && url.includes('/conversations?') && url.includes('conversation=')) await held;
      return fetch(input, init);
    };
    const { window, conversationId } = await childWithOpenChat({ fetch: slowConversation });
    await counsellor.accept(conversationId);
    await within(window).findByText('Du väntar på din tur');

    // Every state of the window from now on: none may show the first words with the queue's parts.
    const mixed: string[] = [];
    const observer = new MutationObserver(() => {
      const text = window.textContent ?? '';
      if (text.includes('Hej! Jag heter Kim.') && queueParts.some((part) => text.includes(part)))
        mixed.push(text);
    });
    observer.observe(window, { childList: true, subtree: true, characterData: true });
    onTestFinished(() => observer.disconnect());

    holding = true;
    await counsellor.write(conversationId, 'Hej! Jag heter Kim.');
    await within(window).findByText('Hej! Jag heter Kim.', {}, LIVE);
    const status = within(window).getByTestId('chat-status');
    expect(status.textContent).toMatch(/^Chatt live \d+ minut/);
    expect(within(window).getByText('Du har nu kopplats fram till en kurator')).toBeTruthy();
    expect(within(window).getByRole('button', { name: 'Avsluta' })).toBeTruthy();
    expect(within(window).queryByRole('button', { name: 'Lämna kön' })).toBeNull();
    expect(within(window).queryByText('Medan du väntar')).toBeNull();
    const input = within(window).getByRole('textbox', { name: 'Meddelande' }) as HTMLTextAreaElement;
    expect(input.placeholder).toBe('Skriv ditt meddelande');

    // The fetched state changes nothing of what shows.
    holding = false;
    release();
    await within(window).findByText(/^Chatt live/, {}, LIVE);
    expect(mixed).toEqual([]);
  });
});
