import './page-dom.ts';
import 'fake-indexeddb/auto';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatEntry } from '../../src/chat-window/chat-messages.ts';
import { MessageList } from '../../src/chat-window/message-list.tsx';
import { DataProvider } from '../../src/data/index.ts';
import {
  CHAT_PAGE_ROWS,
  forgetReadAhead,
  readNewestPage,
  useChatPages,
  type ChatPages,
} from '../../src/data/chat-pages.ts';
import type { WorkerCommands } from '../../worker/client/api.ts';
import { PortalDb } from '../../worker/base/db.ts';
import type { ChatMessageRow } from '../../worker/base/group-support.ts';
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

describe('useChatPages', () => {
  const row = (conversation: number, n: number, loggedDate?: string): ChatMessageRow => ({
    key: `${conversation}:${n}`,
    id: n,
    clientId: null,
    sendStatus: null,
    conversation,
    message: `Meddelande ${n}`,
    loggedDate: loggedDate ?? new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
    authorKind: 'agent',
    contactId: null,
    contactName: null,
    agentId: 1,
    agentName: 'Kim',
    createdAfterClosedConversation: false,
  });

  /** Renders the hook on `db` and answers its latest result, as a live test of what it reads. */
  function probe(db: PortalDb, conversationId: number, enabled = true) {
    const latest: { pages?: ChatPages } = {};
    function Probe() {
      latest.pages = useChatPages(conversationId, enabled);
      return null;
    }
    render(
      <DataProvider value={{ api: {} as WorkerCommands, db }}>
        <Probe />
      </DataProvider>,
    );
    return latest;
  }

  const messages = (pages: ChatPages | undefined) =>
    [...(pages?.rows ?? [])].sort((a, b) => a.loggedDate.localeCompare(b.loggedDate)).map((r) => r.id);

  it("reads a long chat's newest page first and older pages only when asked, none twice or missed", async () => {
    const db = new PortalDb(`use-chat-pages-${Date.now()}`);
    await db.chatMessages.bulkPut(Array.from({ length: 2000 }, (_, n) => row(7, n)));
    // Another chat's rows are never part of it.
    await db.chatMessages.bulkPut(Array.from({ length: 100 }, (_, n) => row(8, 5000 + n)));
    const latest = probe(db, 7);
    await waitFor(() => expect(latest.pages?.total).toBe(2000));
    await waitFor(() => expect(latest.pages?.rows).toHaveLength(CHAT_PAGE_ROWS));
    expect(messages(latest.pages)).toEqual(
      Array.from({ length: CHAT_PAGE_ROWS }, (_, i) => 2000 - CHAT_PAGE_ROWS + i),
    );
    // The newest page is cut (and older ones may be asked for) in the effect after it was read.
    await waitFor(() => expect(latest.pages?.hasOlder).toBe(true));

    act(() => latest.pages!.loadOlder());
    await waitFor(() => expect(latest.pages?.rows).toHaveLength(2 * CHAT_PAGE_ROWS));
    // Asked for again while that page is read: nothing more than one page at a time.
    for (let pages = 2; latest.pages!.hasOlder; pages++) {
      act(() => latest.pages!.loadOlder());
      await waitFor(() =>
        expect(latest.pages!.rows!.length).toBe(Math.min(2000, (pages + 1) * CHAT_PAGE_ROWS)),
      );
    }
    expect(messages(latest.pages)).toEqual(Array.from({ length: 2000 }, (_, n) => n));

    // A new message re-reads only its own page, and shows.
    await db.chatMessages.put(row(7, 2000));
    await waitFor(() => expect(latest.pages?.rows).toHaveLength(2001));
    db.close();
  });

  it('follows the cache as the worker fills it: still only the newest page of what arrives', async () => {
    const db = new PortalDb(`use-chat-pages-filling-${Date.now()}`);
    // Opened with what the last visit kept (a few rows); the worker then writes the whole chat.
    await db.chatMessages.bulkPut(Array.from({ length: 5 }, (_, n) => row(4, 1995 + n)));
    const latest = probe(db, 4);
    await waitFor(() => expect(latest.pages?.rows).toHaveLength(5));
    expect(latest.pages?.hasOlder).toBe(false);
    await db.chatMessages.bulkPut(Array.from({ length: 1995 }, (_, n) => row(4, n)));
    await waitFor(() => expect(latest.pages?.hasOlder).toBe(true));
    expect(messages(latest.pages)).toEqual(
      Array.from({ length: CHAT_PAGE_ROWS }, (_, i) => 2000 - CHAT_PAGE_ROWS + i),
    );
    db.close();
  });

  it('draws a window from the rows read ahead of it (the tap), in its very first render', async () => {
    const db = new PortalDb(`use-chat-pages-ahead-${Date.now()}`);
    await db.chatMessages.bulkPut(Array.from({ length: 500 }, (_, n) => row(6, n)));
    const firstRenders: Array<number | undefined> = [];
    function Window() {
      const { rows } = useChatPages(6);
      firstRenders.push(rows?.length);
      return null;
    }
    const show = () =>
      render(
        <DataProvider value={{ api: {} as WorkerCommands, db }}>
          <Window />
        </DataProvider>,
      );
    // Not read ahead: the first render has nothing yet.
    const before = show();
    expect(firstRenders[0]).toBeUndefined();
    before.unmount();
    firstRenders.length = 0;
    await readNewestPage(db, 6);
    show();
    expect(firstRenders[0]).toBe(CHAT_PAGE_ROWS);
    forgetReadAhead();
    db.close();
  });

  it('splits pages between rows of the same time without losing or doubling one', async () => {
    const db = new PortalDb(`use-chat-pages-ties-${Date.now()}`);
    const sameTime = '2026-01-01T10:00:00.000Z';
    // Around the newest page's edge, 30 rows share one time.
    await db.chatMessages.bulkPut([
      ...Array.from({ length: 100 }, (_, n) => row(3, n)),
      ...Array.from({ length: 30 }, (_, n) => row(3, 100 + n, sameTime)),
      ...Array.from({ length: CHAT_PAGE_ROWS - 10 }, (_, n) =>
        row(3, 200 + n, `2026-01-02T00:00:${String(n).padStart(2, '0')}.000Z`),
      ),
    ]);
    const latest = probe(db, 3);
    // The newest page takes every row of the time it starts at: more than a page, none left behind.
    await waitFor(() => expect(latest.pages?.rows).toHaveLength(CHAT_PAGE_ROWS - 10 + 30));
    while (latest.pages!.hasOlder) {
      const before = latest.pages!.rows!.length;
      act(() => latest.pages!.loadOlder());
      await waitFor(() => expect(latest.pages!.rows!.length).toBeGreaterThan(before));
    }
    const ids = latest.pages!.rows!.map((r) => r.id);
    expect(ids).toHaveLength(100 + 30 + CHAT_PAGE_ROWS - 10);
    expect(new Set(ids).size).toBe(ids.length);
    db.close();
  });

  it("reads nothing of a chat not on screen, and the child's unsent rows whatever their date", async () => {
    const db = new PortalDb(`use-chat-pages-local-${Date.now()}`);
    await db.chatMessages.bulkPut(Array.from({ length: 300 }, (_, n) => row(5, n)));
    // Written on a device whose clock is a day behind: dated before every row of the newest page.
    await db.chatMessages.put({
      ...row(5, 0, '2025-12-31T00:00:00.000Z'),
      key: 'local:abc',
      id: null,
      clientId: 'abc',
      sendStatus: 'sending',
      authorKind: 'contact',
      message: 'Är du kvar?',
    });
    const hidden = probe(db, 5, false);
    const shown = probe(db, 5);
    await waitFor(() => expect(shown.pages?.rows).toHaveLength(CHAT_PAGE_ROWS + 1));
    expect(shown.pages!.rows!.some((r) => r.message === 'Är du kvar?')).toBe(true);
    expect(hidden.pages).toEqual({
      rows: undefined,
      total: undefined,
      hasOlder: false,
      loadOlder: expect.any(Function),
    });
    db.close();
  });
});

describe('MessageList with older rows to read', () => {
  it("asks for them at its top, and counts them in each row's place in the whole", () => {
    let asked = 0;
    const older = { count: 500, load: () => (asked += 1) };
    // happy-dom lays nothing out: a list of no height (a window still opening) asks for nothing...
    const view = render(<MessageList entries={entries(VIRTUALISE_FROM_ROWS)} older={older} />);
    expect(asked).toBe(0);
    view.unmount();
    // ...one shown, scrolled to its top, asks at once.
    const height = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight')!;
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
    try {
      render(<MessageList entries={entries(VIRTUALISE_FROM_ROWS)} older={older} />);
    } finally {
      Object.defineProperty(HTMLElement.prototype, 'clientHeight', height);
    }
    const list = screen.getByRole('list', { name: 'Meddelanden' });
    expect(asked).toBeGreaterThan(0);
    const last = within(list).getAllByRole('listitem').at(-1)!;
    expect(last.getAttribute('aria-posinset')).toBe(String(500 + VIRTUALISE_FROM_ROWS));
    expect(last.getAttribute('aria-setsize')).toBe(String(500 + VIRTUALISE_FROM_ROWS));
  });
});
