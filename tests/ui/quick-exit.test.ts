import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_QUICK_EXIT_URL } from '../../contract/first-screen.ts';
import { loadConfig } from '../../server/config.ts';
import { SHIFT_WINDOW_MS, watchTripleShift } from '../../src/quick-exit/quick-exit.ts';

/** The keyboard's quick exit, fed key events as a browser sends them, on a clock the test moves. */
function keyboard() {
  const target = new EventTarget();
  let now = 0;
  let left = 0;
  const stop = watchTripleShift(
    target as unknown as Window,
    () => left++,
    () => now,
  );
  const press = (key: string, options: { repeat?: boolean; after?: number } = {}) => {
    now += options.after ?? 100;
    const event = new Event('keydown') as Event & { key: string; repeat: boolean };
    Object.assign(event, { key, repeat: options.repeat ?? false });
    target.dispatchEvent(event);
  };
  return { press, left: () => left, stop };
}

const stops: (() => void)[] = [];
afterEach(() => stops.splice(0).forEach((stop) => stop()));

describe('Shift three times leaves the page', () => {
  it('within a second, and once per three presses', () => {
    const k = keyboard();
    stops.push(k.stop);
    k.press('Shift');
    k.press('Shift');
    expect(k.left()).toBe(0);
    k.press('Shift');
    expect(k.left()).toBe(1);
    k.press('Shift');
    expect(k.left()).toBe(1);
  });

  it('not when the presses are spread over more than a second', () => {
    const k = keyboard();
    stops.push(k.stop);
    k.press('Shift');
    k.press('Shift', { after: SHIFT_WINDOW_MS / 2 });
    k.press('Shift', { after: SHIFT_WINDOW_MS / 2 + 10 });
    expect(k.left()).toBe(0);
  });

  it('not while typing capitals (another key between) or holding Shift down (repeats)', () => {
    const k = keyboard();
    stops.push(k.stop);
    k.press('Shift');
    k.press('A');
    k.press('Shift');
    k.press('Shift', { repeat: true });
    k.press('Shift', { repeat: true });
    expect(k.left()).toBe(0);
  });

  it('stops listening when told to', () => {
    const k = keyboard();
    k.stop();
    for (let i = 0; i < 3; i++) k.press('Shift');
    expect(k.left()).toBe(0);
  });
});

describe('QUICK_EXIT_URL', () => {
  it('defaults to a neutral public page and takes another web address', () => {
    expect(loadConfig({}).quickExitUrl).toBe(DEFAULT_QUICK_EXIT_URL);
    expect(loadConfig({ QUICK_EXIT_URL: 'https://www.example.se/nyheter' }).quickExitUrl).toBe(
      'https://www.example.se/nyheter',
    );
  });

  it('refuses what is not a web address (a script URL would run in the app)', () => {
    expect(() => loadConfig({ QUICK_EXIT_URL: 'javascript:alert(1)' })).toThrow(/QUICK_EXIT_URL/);
    expect(() => loadConfig({ QUICK_EXIT_URL: 'inte en adress' })).toThrow(/QUICK_EXIT_URL/);
  });
});
