import type { AppContext } from '../context.ts';
import { runMaintenance } from '../security/maintenance.ts';
import { cancelAbandonedChats } from './abandoned-chats.ts';

/** Pruning and key rotation run this often in every process (server/security/maintenance.ts). */
const MAINTENANCE_INTERVAL_MS = 10 * 60_000;
/** Queued chats are checked for a child who stopped coming back this often (SPEC §4). */
const ABANDONED_CHAT_SWEEP_MS = 30_000;

/**
 * The server's timers, in every process: each job is safe to run in several processes at once, and
 * a failing run waits for the next. Answers a stop function for shutdown.
 */
export function startJobs(ctx: AppContext): () => void {
  const every = (ms: number, job: () => Promise<unknown>) => {
    const timer = setInterval(() => void job().catch(() => undefined), ms);
    // A timer alone never keeps the process alive.
    timer.unref();
    return timer;
  };
  const timers = [
    every(MAINTENANCE_INTERVAL_MS, () => runMaintenance(ctx)),
    every(ABANDONED_CHAT_SWEEP_MS, () => cancelAbandonedChats(ctx)),
  ];
  return () => timers.forEach(clearInterval);
}
