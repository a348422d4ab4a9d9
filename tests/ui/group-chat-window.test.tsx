import './page-dom.ts';
import 'fake-indexeddb/auto';
import { cleanup, screen, waitFor, waitForElementToBeRemoved, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatClosedByUser, openChatMeeting } from '../../src/chat-window/chat-window-store.ts';
import { MeetingDetailPage } from '../../src/meeting-detail/meeting-detail-page.tsx';
import { api, startTestServer, type TestServer } from '../../harness/test-server.ts';
import { leaderToken, startedChat } from '../worker/group/group-helpers.ts';
import { connectUi, renderWithData, type UiConnection } from './worker-connection.tsx';

/**
 * The group chat window over the meeting detail, driven as a participant uses it, against the real
 * worker core and the real server; the demo group leader acts through the staff API.
 */
let server: TestServer;
let leader: string;
const connections: UiConnection[] = [];
beforeAll(async () => {
  server = await startTestServer({ variant: 'gruppstod' });
  leader = await leaderToken(server);
});
afterEach(async () => {
  cleanup();
  openChatMeeting.value = null;
  chatClosedByUser.value = new Set();
  await Promise.all(connections.splice(0).map((c) => c.dispose()));
});
afterAll(async () => server?.dispose());

/** Real-time events cross the server and the hub; generous for a loaded machine. */
const LIVE = { timeout: 15_000 };

const leaderSays = (meetingId: number, content: string) =>
  api(server.url, `/portal/staff/meetings/${meetingId}/messages`, { token: leader, body: { content } });
const leaderEnds = (meetingId: number) =>
  api(server.url, `/portal/staff/meetings/${meetingId}/end`, { token: leader, body: {} });

/**
 * A meeting the leader has started, its detail open for a participant. With `welcome` the leader has
 * also begun the chat with that message before the participant came.
 */
async function participantOnStartedMeeting(subject: string, welcome?: string) {
  const { meetingId } = await startedChat(server, leader, subject);
  if (welcome) await leaderSays(meetingId, welcome);
  const connection = await connectUi(server, 'DEMOKOD-0001', null);
  connections.push(connection);
  renderWithData(server, connection, <MeetingDetailPage id={String(meetingId)} />);
  await screen.findByRole('heading', { level: 1, name: subject }, LIVE);
  return { meetingId };
}

/** The chat window; it is named after the meeting's subject. */
const chatWindow = (subject: string) => screen.getByRole('dialog', { name: subject });

/** 'Öppna chatt' on the meeting detail, and the window it opens. */
async function openChat(user: UserEvent, subject: string) {
  await user.click(await screen.findByRole('button', { name: 'Öppna chatt' }, LIVE));
  return chatWindow(subject);
}

const messageList = (window: HTMLElement) =>
  within(within(window).getByRole('list', { name: 'Meddelanden' }));
const messageInput = (window: HTMLElement) =>
  within(window).getByRole('textbox', { name: 'Meddelande' }) as HTMLTextAreaElement;

describe('a participant in the group chat', () => {
  it('opens the chat before it has begun, waits, and writes once the leader has started it', async () => {
    const user = userEvent.setup();
    const subject = 'Chatten börjar';
    const { meetingId } = await participantOnStartedMeeting(subject);

    let window = await openChat(user, subject);
    expect(within(window).getByText('Chatten börjar strax', { selector: '[role=status]' })).toBeTruthy();
    expect(messageInput(window).disabled).toBe(true);
    // Minimised before it has begun, the bar does not call it active.
    await user.click(within(window).getByRole('button', { name: 'Minimera chatten' }));
    await user.click(screen.getByRole('button', { name: 'Chattkö' }));
    expect(screen.queryByRole('button', { name: 'Aktiv chatt' })).toBeNull();
    window = chatWindow(subject);
    // Before it has begun, closing it is leaving (SPEC §8's group wording of leaving the queue).
    await user.click(within(window).getByRole('button', { name: 'Lämna chatten' }));
    const confirm = screen.getByRole('dialog', { name: 'Bekräfta' });
    expect(within(confirm).getByText('Är du säker på att du vill lämna chatten?')).toBeTruthy();
    expect(within(confirm).getByRole('button', { name: 'Ja, lämna' })).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Avbryt' }));

    // The meeting was opened for chat 20 minutes ago; the leader begins the chat only now.
    await server.ctx.db
      .updateTable('conversations')
      .set({ logged_date: new Date(Date.now() - 20 * 60_000).toISOString() })
      .where('meeting_id', '=', meetingId)
      .execute();
    await leaderSays(meetingId, 'Välkomna allihop!');
    const messages = messageList(window);
    await messages.findByText('Gruppchatten har startat', {}, LIVE);
    const welcome = await messages.findByText('Välkomna allihop!', {}, LIVE);
    expect(welcome.closest('li')?.textContent).toContain('Gruppledare Sara');
    // 'Chatt live' counts from the chat's start (the leader's first message), not from the meeting's.
    expect(within(window).getByText(/^Chatt live [01] minut/, { selector: '[role=status]' })).toBeTruthy();

    const input = messageInput(window);
    expect(input.disabled).toBe(false);
    await user.type(input, 'Hej från mig');
    expect(within(window).getByText('Antal tecken: 12 av 700')).toBeTruthy();
    await user.click(within(window).getByRole('button', { name: 'Skicka' }));
    await messages.findByText('Hej från mig');
    const sent = await messages.findByText('Skickat', {}, LIVE);
    expect(sent.closest('li')?.textContent).toContain('Hej från mig');
    expect(input.value).toBe('');
  });

  it('sends with Enter while "Skicka med Enter" is checked, and writes a new line once it is not', async () => {
    const user = userEvent.setup();
    const subject = 'Skicka med Enter';
    await participantOnStartedMeeting(subject, 'Välkomna!');
    const window = await openChat(user, subject);
    const messages = messageList(window);
    await messages.findByText('Gruppchatten har startat', {}, LIVE);
    const option = within(window).getByRole('checkbox', { name: 'Skicka med Enter' }) as HTMLInputElement;
    expect(option.checked).toBe(true);

    const input = messageInput(window);
    await user.type(input, 'Med Enter{Enter}');
    const sent = await messages.findByText('Skickat', {}, LIVE);
    expect(sent.closest('li')?.textContent).toContain('Med Enter');
    await waitFor(() => expect(input.disabled).toBe(false));
    expect(input.value).toBe('');

    await user.click(option);
    expect(option.checked).toBe(false);
    await user.type(input, 'Rad ett{Enter}rad två');
    expect(input.value).toBe('Rad ett\nrad två');
    expect(messages.queryByText(/Rad ett/)).toBeNull();
  });

  it('minimises the chat and sees "Nya meddelanden!" when the leader writes, then reads it', async () => {
    const user = userEvent.setup();
    const subject = 'Minimerad chatt';
    const { meetingId } = await participantOnStartedMeeting(subject, 'Då börjar vi.');
    const window = await openChat(user, subject);
    await messageList(window).findByText('Då börjar vi.', {}, LIVE);

    await user.click(within(window).getByRole('button', { name: 'Minimera chatten' }));
    expect(screen.queryByRole('dialog', { name: subject })).toBeNull();
    expect(screen.getByRole('button', { name: 'Aktiv chatt' })).toBeTruthy();

    await leaderSays(meetingId, 'Hur mår ni idag?');
    await user.click(await screen.findByRole('button', { name: 'Nya meddelanden!' }, LIVE));
    expect(messageList(chatWindow(subject)).getByText('Hur mår ni idag?')).toBeTruthy();

    await user.click(within(chatWindow(subject)).getByRole('button', { name: 'Minimera chatten' }));
    expect(screen.getByRole('button', { name: 'Aktiv chatt' })).toBeTruthy();
  });

  it('is asked before closing down a running chat, may stay, and leaves on "Ja, stäng ner"', async () => {
    const user = userEvent.setup();
    const subject = 'Lämna chatten';
    await participantOnStartedMeeting(subject, 'Välkomna!');
    const window = await openChat(user, subject);
    await messageList(window).findByText('Gruppchatten har startat', {}, LIVE);

    await user.click(within(window).getByRole('button', { name: 'Lämna chatten' }));
    const confirm = screen.getByRole('dialog', { name: 'Bekräfta' });
    expect(within(confirm).getByText('Är du säker på att du vill stänga ner chatten?')).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Avbryt' }));
    expect(screen.queryByRole('dialog', { name: 'Bekräfta' })).toBeNull();
    expect(chatWindow(subject)).toBeTruthy();

    await user.click(within(window).getByRole('button', { name: 'Lämna chatten' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Bekräfta' })).getByRole('button', { name: 'Ja, stäng ner' }),
    );
    await waitForElementToBeRemoved(() => screen.queryByRole('dialog', { name: subject }));
    // Left by choice: the chat does not open by itself again, but the participant may open it.
    expect(screen.getByRole('button', { name: 'Öppna chatt' })).toBeTruthy();
  });

  it('sees the chat end when the leader ends the meeting, and closes it without being asked', async () => {
    const user = userEvent.setup();
    const subject = 'Avslutad chatt';
    const { meetingId } = await participantOnStartedMeeting(subject, 'Tack för i dag.');
    const window = await openChat(user, subject);
    await messageList(window).findByText('Gruppchatten har startat', {}, LIVE);
    expect(within(window).queryByRole('button', { name: 'Stäng' })).toBeNull();

    await leaderEnds(meetingId);
    await within(window).findByText('Chatten är avslutad', { selector: '[role=status]' }, LIVE);
    expect(messageInput(window).disabled).toBe(true);
    expect(messageInput(window).placeholder).toBe('Chatten är avslutad');

    await user.click(within(window).getByRole('button', { name: 'Stäng' }));
    expect(screen.queryByRole('dialog', { name: 'Bekräfta' })).toBeNull();
    expect(screen.queryByRole('dialog', { name: subject })).toBeNull();
    expect(await screen.findByRole('button', { name: 'Se chatthistorik' }, LIVE)).toBeTruthy();
  });
});
