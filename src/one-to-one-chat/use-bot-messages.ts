import { useEffect, useState } from 'react';
import { BOT_MESSAGE_DELAYS_MS } from '../../contract/timings.ts';

/** Reveals the queue's bot messages one by one after SPEC §9's delays (2 s, 6 s, 4 s, 0.5 s). */
export function useBotMessages(
  texts: readonly string[],
  running: boolean,
): { shown: string[]; done: boolean } {
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (!running || count >= texts.length) return;
    const timer = setTimeout(() => setCount((n) => n + 1), BOT_MESSAGE_DELAYS_MS[count] ?? 500);
    return () => clearTimeout(timer);
  }, [running, count, texts.length]);
  return { shown: texts.slice(0, count), done: count >= texts.length };
}
