import { HUB_EVENTS } from '../../contract/hub.ts';
import { CONVERSATION_UPDATED_THROTTLE_MS, MESSAGE_CREATED_THROTTLE_MS } from '../../contract/timings.ts';
import type { Clock } from '../clock.ts';

/** SPEC §7: refetches caused by these events run at most this often per entity. */
export const EVENT_THROTTLE_MS: Readonly<Record<string, number>> = {
  [HUB_EVENTS.messageCreated]: MESSAGE_CREATED_THROTTLE_MS,
  [HUB_EVENTS.conversationUpdated]: CONVERSATION_UPDATED_THROTTLE_MS,
};

/**
 * Leading and trailing throttle per key: the first event runs at once, a burst inside the window
 * collapses into one more run at its end, so the last change is never missed.
 */
export function keyedThrottle(clock: Clock, ms: number, run: (key: string) => void): (key: string) => void {
  const lastRun = new Map<string, number>();
  const trailing = new Map<string, unknown>();
  const fire = (key: string) => {
    trailing.delete(key);
    lastRun.set(key, clock.now());
    run(key);
  };
  return (key) => {
    if (trailing.has(key)) return;
    const since = clock.now() - (lastRun.get(key) ?? -Infinity);
    if (since >= ms) fire(key);
    else
      trailing.set(
        key,
        clock.setTimeout(() => fire(key), ms - since),
      );
  };
}

/**
 * Trailing debounce per key with a ceiling: runs once the key has been quiet for `quietMs`, and at
 * the latest `maxWaitMs` after the first call it has not run for, so a steady stream still runs.
 */
export function keyedDebounce(
  clock: Clock,
  quietMs: number,
  maxWaitMs: number,
  run: (key: string) => void,
): (key: string) => void {
  const pending = new Map<string, { first: number; timer: unknown }>();
  const fire = (key: string) => {
    pending.delete(key);
    run(key);
  };
  return (key) => {
    const now = clock.now();
    const before = pending.get(key);
    if (before) clock.clearTimeout(before.timer);
    const first = before?.first ?? now;
    const wait = Math.max(0, Math.min(quietMs, first + maxWaitMs - now));
    pending.set(key, { first, timer: clock.setTimeout(() => fire(key), wait) });
  };
}
