import './page-dom.ts';
import 'fake-indexeddb/auto';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatEntry } from '../../src/chat-window/chat-messages.ts';
import { MessageList } from '../../src/chat-window/message-list.tsx';
import { DataProvider } from '../../src/data/index.ts';
import { CHAT_TAIL_ROWS, useChatRows } from '../../src/data/meeting-and-chat-hooks.ts';
import type { WorkerCommands } from '../../worker/client/api.ts';
import { PortalDb } from '../../worker/client/db.ts';
import type { ChatMessageRow } from '../../worker/client/group-support.ts';
import {
  ESTIMATED_ROW_PX,
  VIRTUALISE_FROM_ROWS,
  meanHeight,
  rowOffsets,
  rowWindow,
} from '../../src/chat-window/virtual-rows.ts';

/**
 * Long message lists are windowed: a history of thousands of messages puts only the rows near the
 * viewport in the DOM, with spacers for the rest, and announces new messages through its own live
 * region. (Layout itself is proven in Chromium: e2e/scroll-a-long-chat-history.spec.ts.)
 */
afterEach(cleanup);

const entry = (n: number, authorType: ChatEntry['authorType'] = 'staff'): ChatEntry => ({
  key: `m${n}`,
  content: `Meddelande ${n}`,
  loggedDate: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  authorType,
  authorName: 'Kurator Kim',
  sendStatus: 'sent',
  createdAfterClosedConversation: false,
  sameAuthorAsPreviousMessage: n > 0,
});
const entries = (count: number) => Array.from({ length: count }, (_, n) => entry(n));

describe('rowWindow', () => {
  const offsets = rowOffsets(1000, () => 50);

  it('renders the rows around the viewport with spacers standing in for the others', () => {
    const w = rowWindow(offsets, 10_000, 500, 100, false);
    expect(w).toEqual({ start: 198, end: 213, before: 9_900, after: 39_350, total: 50_000 });
    expect(w.before + (w.end - w.start) * 50 + w.after).toBe(w.total);
  });

  it('follows the bottom of the list whatever the scroll position says', () => {
    const w = rowWindow(offsets, 0, 500, 100, true);
    expect(w.end).toBe(1000);
    expect(w.after).toBe(0);
    expect(w.start).toBe(988);
  });

  it('clamps a scroll position past either end and handles an empty list', () => {
    expect(rowWindow(offsets, -300, 500, 0, false).start).toBe(0);
    expect(rowWindow(offsets, 99_999, 500, 0, false).end).toBe(1000);
    expect(
      rowWindow(
        rowOffsets(0, () => 50),
        0,
        500,
        100,
        false,
      ),
    ).toEqual({
      start: 0,
      end: 0,
      before: 0,
      after: 0,
      total: 0,
    });
  });

  it('uses measured heights where known and their mean for the rest', () => {
    const measured = new Map([
      ['a', 40],
      ['b', 80],
    ]);
    expect(meanHeight(measured)).toBe(60);
    expect(meanHeight(new Map())).toBe(ESTIMATED_ROW_PX);
    const mixed = rowOffsets(3, (i) => [40, 80, 60][i]!);
    expect([...mixed]).toEqual([0, 40, 120, 180]);
  });
});

describe('MessageList', () => {
  it('renders every row of a short chat, announced by the list itself', () => {
    render(<MessageList entries={entries(20)} />);
    const list = screen.getByRole('list', { name: 'Meddelanden' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);
    expect(list.getAttribute('aria-live')).toBe('polite');
  });

  it('puts only the newest rows of a long history in the DOM, each with its place in the whole', () => {
    render(<MessageList entries={entries(5000)} />);
    const list = screen.getByRole('list', { name: 'Meddelanden' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(80);
    expect(within(list).getByText('Meddelande 4999')).toBeTruthy();
    expect(within(list).queryByText('Meddelande 0')).toBeNull();
    const last = rows[rows.length - 1]!;
    expect(last.getAttribute('aria-posinset')).toBe('5000');
    expect(last.getAttribute('aria-setsize')).toBe('5000');
    // Rows coming and going while scrolling are not read out: the list is not a live region.
    expect(list.getAttribute('aria-live')).toBeNull();
  });

  it("announces a new message of a long chat in its own live region, but not one's own", () => {
    const start = entries(VIRTUALISE_FROM_ROWS + 10);
    const view = render(<MessageList entries={start} />);
    const live = view.container.querySelector('[aria-live="polite"]')!;
    expect(live.textContent).toBe('');

    const theirs = { ...entry(9000), content: 'Hur mår du idag?' };
    act(() => view.rerender(<MessageList entries={[...start, theirs]} />));
    expect(live.textContent).toBe('Kurator Kim: Hur mår du idag?');
    expect(screen.getByText('Hur mår du idag?', { selector: 'p[id]' })).toBeTruthy();

    const mine = { ...entry(9001, 'me'), content: 'Okej' };
    act(() => view.rerender(<MessageList entries={[...start, theirs, mine]} />));
    expect(live.textContent).toBe('');
  });

  it('is not windowed where it scrolls with its page (a mail thread)', () => {
    render(<MessageList entries={entries(VIRTUALISE_FROM_ROWS + 50)} windowed={false} />);
    const list = screen.getByRole('list', { name: 'Meddelanden' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(VIRTUALISE_FROM_ROWS + 50);
  });
});

describe('useChatRows', () => {
  const row = (conversation: number, n: number): ChatMessageRow => ({
    key: `${conversation}:${n}`,
    id: n,
    clientId: null,
    sendStatus: null,
    conversation,
    message: `Meddelande ${n}`,
    loggedDate: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
    authorKind: 'agent',
    contactId: null,
    contactName: null,
    agentId: 1,
    agentName: 'Kim',
    createdAfterClosedConversation: false,
  });

  it("gives a long chat's newest rows first, in order, then every row", async () => {
    const db = new PortalDb(`use-chat-rows-${Date.now()}`);
    await db.chatMessages.bulkPut(Array.from({ length: 2000 }, (_, n) => row(7, n)));
    // Another chat's rows are never part of it.
    await db.chatMessages.bulkPut(Array.from({ length: 100 }, (_, n) => row(8, 5000 + n)));
    const seen: { length: number; complete: boolean; first?: string; last?: string }[] = [];
    function Probe() {
      const { rows, complete } = useChatRows(7);
      if (rows)
        seen.push({ length: rows.length, complete, first: rows[0]?.message, last: rows.at(-1)?.message });
      return null;
    }
    render(
      <DataProvider value={{ api: {} as WorkerCommands, db }}>
        <Probe />
      </DataProvider>,
    );
    await waitFor(() => expect(seen.at(-1)?.complete).toBe(true));
    expect(seen[0]).toEqual({
      length: CHAT_TAIL_ROWS,
      complete: false,
      first: `Meddelande ${2000 - CHAT_TAIL_ROWS}`,
      last: 'Meddelande 1999',
    });
    expect(seen.at(-1)).toEqual({
      length: 2000,
      complete: true,
      first: 'Meddelande 0',
      last: 'Meddelande 1999',
    });
    db.close();
  });

  it('calls a chat shorter than the tail complete at once', async () => {
    const db = new PortalDb(`use-chat-rows-short-${Date.now()}`);
    await db.chatMessages.bulkPut(Array.from({ length: 5 }, (_, n) => row(9, n)));
    const seen: { length: number; complete: boolean }[] = [];
    function Probe() {
      const { rows, complete } = useChatRows(9);
      if (rows) seen.push({ length: rows.length, complete });
      return null;
    }
    render(
      <DataProvider value={{ api: {} as WorkerCommands, db }}>
        <Probe />
      </DataProvider>,
    );
    await waitFor(() => expect(seen.length).toBeGreaterThan(0));
    expect(seen[0]).toEqual({ length: 5, complete: true });
    db.close();
  });
});
