import type { AppContext } from '../context.ts';
import { runMaintenance } from './maintenance.ts';
import { cancelAbandonedChats } from './abandoned-chats.ts';
import { endChatsPastLimit } from '../conversations/chat-limit.ts';
import { eraseLateWrites } from '../conversations/erasure.ts';

/** Pruning and key rotation run this often in every process (server/jobs/maintenance.ts). */
const MAINTENANCE_INTERVAL_MS = 10 * 60_000;
/** Queued chats are checked for a child who stopped coming back this often (SPEC §4). */
const ABANDONED_CHAT_SWEEP_MS = 30_000;
/** Live chats whose daily time is up (SPEC §9) are ended this often: a chat ends at most 5 s late. */
const CHAT_LIMIT_SWEEP_MS = 5_000;
/** What a request in flight at an account's erasure wrote after it is erased this often. */
const LATE_WRITE_SWEEP_MS = 60_000;

/**
 * The server's timers, in every process: each job is safe to run in several processes at once, and
 * a failing run waits for the next. Answers a stop function for shutdown once the chats whose time
 * ran out while no process ran (a restart) have ended.
 */
export async function startJobs(ctx: AppContext): Promise<() => void> {
  await endChatsPastLimit(ctx).catch(() => undefined);
  const every = (ms: number, job: () => Promise<unknown>) => {
    const timer = setInterval(() => void job().catch(() => undefined), ms);
    // A timer alone never keeps the process alive.
    timer.unref();
    return timer;
  };
  const timers = [
    every(MAINTENANCE_INTERVAL_MS, () => runMaintenance(ctx)),
    every(ABANDONED_CHAT_SWEEP_MS, () => cancelAbandonedChats(ctx)),
    every(CHAT_LIMIT_SWEEP_MS, () => endChatsPastLimit(ctx)),
    every(LATE_WRITE_SWEEP_MS, () => eraseLateWrites(ctx)),
  ];
  return () => timers.forEach(clearInterval);
}
