import './page-dom.ts';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SCROLL_TO_BOTTOM_DELAY_MS } from '../../contract/timings.ts';
import type { ChatEntry } from '../../src/chat-window/chat-messages.ts';
import { MessageList } from '../../src/chat-window/message-list.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const entry = (n: number): ChatEntry => ({
  key: `m${n}`,
  content: `Meddelande ${n}`,
  loggedDate: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  authorType: 'staff',
  authorName: 'Kurator Kim',
  sendStatus: 'sent',
  createdAfterClosedConversation: false,
  sameAuthorAsPreviousMessage: n > 0,
});
const entries = (count: number) => Array.from({ length: count }, (_, n) => entry(n));

/**
 * The page DOM lays nothing out: the list's heights are given as a browser would measure them (the
 * layout itself is proven in Chromium, e2e/scroll-and-write-in-a-live-chat.spec.ts).
 */
function laidOut(list: HTMLElement, height: { scroll: number; client: number }) {
  Object.defineProperty(list, 'scrollHeight', { configurable: true, get: () => height.scroll });
  Object.defineProperty(list, 'clientHeight', { configurable: true, get: () => height.client });
}

describe('a message list at its newest message (SPEC §2)', () => {
  it('scrolls a new message into view 250 ms after it comes, not at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const view = render(<MessageList entries={entries(3)} windowed={false} />);
    const list = screen.getByRole('list', { name: 'Meddelanden' });
    const height = { scroll: 600, client: 300 };
    laidOut(list, height);
    list.scrollTop = 300;

    height.scroll = 700;
    act(() => view.rerender(<MessageList entries={entries(4)} windowed={false} />));
    await act(() => vi.advanceTimersByTimeAsync(SCROLL_TO_BOTTOM_DELAY_MS - 1));
    expect(list.scrollTop).toBe(300);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(list.scrollTop).toBe(700);
  });
});
