/**
 * The Web Locks the app takes, each named once, and the one test of whether the browser has them.
 * Web Locks exist only in secure contexts (and not in every browser); without them each context acts
 * alone: a worker runs its own hub, a refresh is not shared, a tab's end is not noticed.
 */
export const LOCKS = {
  /** Held by the dedicated worker that runs the hub where SharedWorker is missing. */
  hubLeader: 'portal-hub-leader',
  /** Held around a token refresh: refresh tokens rotate, so two at once would spend one twice. */
  authRefresh: 'portal-auth-refresh',
  /** Held while the at-rest key file is made or shredded, so the two never interleave (at-rest-key.ts). */
  atRestKey: 'portal-at-rest-key',
  /** Held by a tab for its whole life: the worker learns the tab is gone when it becomes free. */
  tab: (tabId: string) => `portal-tab-${tabId}`,
} as const;

/** The browser's lock manager, or null where there is none. */
export function webLocks(): LockManager | null {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  return typeof locks?.request === 'function' ? locks : null;
}
