import type { PortalDb, RuntimeRow, SessionRow } from '../base/db.ts';

const DEFAULT_RUNTIME: RuntimeRow = {
  id: 'current',
  hubState: 'Disconnected',
  notificationCount: 0,
  online: true,
};

/** Merges a change into the single runtime row, creating it on first use. */
export async function updateRuntime(db: PortalDb, patch: Partial<Omit<RuntimeRow, 'id'>>): Promise<void> {
  await db.transaction('rw', db.runtime, async () => {
    const current = (await db.runtime.get('current')) ?? DEFAULT_RUNTIME;
    await db.runtime.put({ ...current, ...patch });
  });
}

export async function writeSession(
  db: PortalDb,
  status: SessionRow['status'],
  signOutReason?: SessionRow['signOutReason'],
  now = Date.now(),
): Promise<void> {
  await db.session.put({
    id: 'current',
    status,
    ...(signOutReason ? { signOutReason } : {}),
    changedAt: now,
  });
}
