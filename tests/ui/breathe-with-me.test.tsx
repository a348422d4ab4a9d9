import './page-dom.ts';
import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BreatheWithMe } from '../../src/one-to-one-chat/breathe-with-me.tsx';
import { hideChatWindow } from '../../src/one-to-one-chat/chat-store.ts';
import { api } from '../../harness/test-server.ts';
import { useCounsellorTestEnv } from '../worker/child-helpers.ts';
import type { UiConnection } from './worker-connection.tsx';
import { childInTheQueue } from './child-in-the-queue.tsx';

/**
 * 'Andas med mig' while a child waits for a counsellor: the exercise on its own clock (fake timers),
 * and inside the real chat window against the real worker core and server.
 */
const env = useCounsellorTestEnv();
const connections: UiConnection[] = [];
afterEach(async () => {
  cleanup();
  hideChatWindow();
  await Promise.all(connections.splice(0).map((c) => c.dispose()));
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** The system's wish for less motion, as window.matchMedia reports it. */
function prefersReducedMotion(reduce: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: reduce && query.includes('prefers-reduced-motion: reduce'),
        media: query,
        onchange: null,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        addListener: () => undefined,
        removeListener: () => undefined,
        dispatchEvent: () => false,
      }) as MediaQueryList,
  );
}

const liveRegion = (container: HTMLElement) => {
  const region = container.querySelector('[aria-live="polite"]');
  if (!(region instanceof HTMLElement)) throw new Error('no live region');
  return region;
};
const circle = () => screen.queryByTestId('breathing-circle');
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('the breathing exercise', () => {
  it('breathes in for 4 s, holds for 4 s, out for 6 s and round again, said in a polite live region', async () => {
    prefersReducedMotion(false);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { container } = render(<BreatheWithMe />);
    expect(screen.getByRole('heading', { name: 'Medan du väntar' })).toBeTruthy();
    const region = liveRegion(container);
    expect(region.textContent).toBe('');
    expect(circle()).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Andas med mig' }));
    expect(region.textContent).toBe('Andas in ...');
    const stop = screen.getByRole('button', { name: 'Sluta andas' });
    expect(document.activeElement).toBe(stop);
    const growing = circle()?.className;
    expect(growing).toBeTruthy();

    await advance(3_999);
    expect(region.textContent).toBe('Andas in ...');
    await advance(1);
    expect(region.textContent).toBe('Håll andan ...');
    await advance(3_999);
    expect(region.textContent).toBe('Håll andan ...');
    await advance(1);
    expect(region.textContent).toBe('Andas ut ...');
    // The circle shrinks on the out-breath: its phase class is not the in-breath's.
    expect(circle()?.className).not.toBe(growing);
    await advance(5_999);
    expect(region.textContent).toBe('Andas ut ...');
    await advance(1);
    expect(region.textContent).toBe('Andas in ...');
    expect(circle()?.className).toBe(growing);
  });

  it('ends with the stop button or with Escape, and gives focus back to the start button', async () => {
    prefersReducedMotion(false);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { container } = render(<BreatheWithMe />);

    fireEvent.click(screen.getByRole('button', { name: 'Andas med mig' }));
    fireEvent.click(screen.getByRole('button', { name: 'Sluta andas' }));
    expect(liveRegion(container).textContent).toBe('');
    expect(circle()).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Andas med mig' }));

    fireEvent.click(screen.getByRole('button', { name: 'Andas med mig' }));
    expect(liveRegion(container).textContent).toBe('Andas in ...');
    fireEvent.keyDown(screen.getByRole('button', { name: 'Sluta andas' }), { key: 'Escape' });
    expect(liveRegion(container).textContent).toBe('');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Andas med mig' }));
    // Stopped means stopped: no phase comes back on its own.
    await advance(20_000);
    expect(liveRegion(container).textContent).toBe('');
  });

  it('with reduced motion shows no circle, and the text alone steps through the phases', async () => {
    prefersReducedMotion(true);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { container } = render(<BreatheWithMe />);

    fireEvent.click(screen.getByRole('button', { name: 'Andas med mig' }));
    const region = liveRegion(container);
    const said = [region.textContent];
    for (const ms of [4_000, 4_000, 6_000]) {
      expect(circle()).toBeNull();
      await advance(ms);
      said.push(region.textContent);
    }
    expect(said).toEqual(['Andas in ...', 'Håll andan ...', 'Andas ut ...', 'Andas in ...']);
    expect(container.querySelector('[aria-hidden="true"]')).toBeNull();
  });
});

/** Real-time events cross the server and the hub; generous for a loaded machine. */
const LIVE = { timeout: 15_000 };

const counsellor = {
  accept: (id: number) =>
    api(env.server.url, `/portal/staff/conversations/${id}/accept`, { token: env.counsellor, body: {} }),
  write: (id: number, content: string) =>
    api(env.server.url, `/portal/staff/conversations/${id}/messages`, {
      token: env.counsellor,
      body: { content },
    }),
};

describe('a child waiting in the queue', () => {
  it('breathes with the window while the queue place stays in view, and the exercise gives way to the counsellor at once', async () => {
    prefersReducedMotion(false);
    // The server and the worker keep their own timers; the fake clock also follows real time.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    const { window, conversationId } = await childInTheQueue(env, connections);
    const status = within(window).getByTestId('chat-status');
    await vi.waitFor(() => expect(status.textContent).toMatch(/Köplats: \d+/), LIVE);

    const exercise = within(window).getByRole('region', { name: 'Medan du väntar' });
    await user.click(within(exercise).getByRole('button', { name: 'Andas med mig' }));
    const region = liveRegion(exercise);
    expect(region.textContent).toBe('Andas in ...');
    expect(status.textContent).toMatch(/Du väntar på din tur.*Köplats: \d+/);
    // The exercise comes after the status in the window, not over it.
    expect(status.compareDocumentPosition(exercise) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    // Tolerant of the few real milliseconds the clock also advances by.
    await advance(3_500);
    expect(region.textContent).toBe('Andas in ...');
    await advance(1_000);
    expect(region.textContent).toBe('Håll andan ...');
    expect(status.textContent).toMatch(/Köplats: \d+/);
    await advance(4_000);
    expect(region.textContent).toBe('Andas ut ...');
    expect(status.textContent).toMatch(/Köplats: \d+/);

    await counsellor.accept(conversationId);
    await counsellor.write(conversationId, 'Hej! Jag heter Kim.');
    await within(window).findByText(/^Chatt live/, {}, LIVE);
    // The render that turns the chat live is the one that removes the exercise.
    expect(within(window).queryByRole('region', { name: 'Medan du väntar' })).toBeNull();
    expect(within(window).queryByRole('button', { name: 'Andas med mig' })).toBeNull();
    expect(window.querySelector('[aria-live="polite"]')?.textContent ?? '').not.toContain('Andas');
    await within(window).findByText('Hej! Jag heter Kim.', {}, LIVE);
  });
});
