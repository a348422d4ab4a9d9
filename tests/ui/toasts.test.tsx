import './page-dom.ts';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOAST_AUTOHIDE_MS } from '../../contract/timings.ts';
import { showToast, toasts } from '../../src/dialogs/toast-store.ts';
import { Toasts } from '../../src/dialogs/toasts.tsx';

afterEach(() => {
  cleanup();
  toasts.value = [];
  vi.useRealTimers();
});

describe('the toasts', () => {
  it('hides a toast by itself 5 s after it was shown', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    render(<Toasts />);
    act(() => {
      showToast('Gick inte att skicka meddelandet', { kind: 'error' });
    });
    expect(screen.getByText('Gick inte att skicka meddelandet')).toBeTruthy();

    await act(() => vi.advanceTimersByTimeAsync(TOAST_AUTOHIDE_MS - 1));
    expect(screen.getByText('Gick inte att skicka meddelandet')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.queryByText('Gick inte att skicka meddelandet')).toBeNull();
  });
});
