import { useEffect, useState } from 'react';
import { CHAT_TIME_LEFT_ANNOUNCED_AT, CHAT_TIME_LEFT_SHOWN_MS } from '../../contract/limits.ts';

const MINUTE = 60_000;

/**
 * Whole minutes left until the server ends the chat (`limitEndsAt`, SPEC §9 daily limit), rounded
 * up, during the last 10 minutes; null before them, after the end, and for a chat without a limit.
 */
export function chatMinutesLeft(limitEndsAt: string | null, now: number): number | null {
  if (limitEndsAt === null) return null;
  const left = Date.parse(limitEndsAt) - now;
  if (!(left > 0) || left > CHAT_TIME_LEFT_SHOWN_MS) return null;
  return Math.ceil(left / MINUTE);
}

/** How long until chatMinutesLeft next changes; null when it no longer will. */
function untilNextChange(limitEndsAt: string | null, now: number): number | null {
  if (limitEndsAt === null) return null;
  const left = Date.parse(limitEndsAt) - now;
  if (!(left > 0)) return null;
  if (left > CHAT_TIME_LEFT_SHOWN_MS) return left - CHAT_TIME_LEFT_SHOWN_MS;
  return left % MINUTE || MINUTE;
}

/**
 * chatMinutesLeft, live: re-rendered at the moment the whole minute changes (counted from the end,
 * not from when the screen opened), so it never lags up to a minute behind.
 */
export function useChatMinutesLeft(limitEndsAt: string | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const delay = untilNextChange(limitEndsAt, Date.now());
    if (delay === null) return;
    const timer = setTimeout(() => setNow(Date.now()), delay);
    return () => clearTimeout(timer);
  }, [limitEndsAt, now]);
  // The time of this render, not of the last timer: a new end (the chat went live) counts at once.
  return chatMinutesLeft(limitEndsAt, Date.now());
}

/**
 * 'X minuter kvar' (each app gives its text) during a chat's last 10 minutes. The visible text is
 * not a live region: screen readers are told the time left at 10, 5 and 1 minutes only, through a
 * hidden status that is empty in between (emptying it says nothing).
 */
export function ChatTimeLeft({
  limitEndsAt,
  text,
  className,
}: {
  limitEndsAt: string | null;
  text: (minutes: number) => string;
  className?: string;
}) {
  const minutes = useChatMinutesLeft(limitEndsAt);
  const announced = minutes !== null && CHAT_TIME_LEFT_ANNOUNCED_AT.includes(minutes) ? text(minutes) : '';
  return (
    <>
      {minutes !== null && (
        <span className={className} data-testid="chat-time-left">
          {text(minutes)}
        </span>
      )}
      <span role="status" className="visually-hidden" data-testid="chat-time-left-announcement">
        {announced}
      </span>
    </>
  );
}
