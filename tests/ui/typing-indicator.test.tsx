import './page-dom.ts';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TYPING_VISIBLE_MS } from '../../contract/timings.ts';
import { TypingIndicator } from '../../src/chat-window/typing-indicator.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the typing indicator', () => {
  it('shows who is typing and clears 5 s after their last typing activity', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const at = Date.now();
    const rows = [
      { key: '7:2', conversation: 7, contactId: 2, contactName: 'Anna', at },
      { key: '7:1', conversation: 7, contactId: 1, contactName: 'Jag själv', at },
    ];
    render(<TypingIndicator rows={rows} myContactId={1} />);
    expect(screen.getByText('Anna skriver')).toBeTruthy();

    await act(() => vi.advanceTimersByTimeAsync(TYPING_VISIBLE_MS - 1000));
    expect(screen.getByText('Anna skriver')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.queryByText('Anna skriver')).toBeNull();
  });
});
