import type { PortalDb } from '../base/db.ts';

/**
 * Whether the child signed in said 'Ja, tack' to notices on this browser: Web Push subscribes this
 * browser for them alone (src/pwa/web-push-keeper.tsx), never for another child who signs in here
 * later. The answer is kept in the runtime row by contact id (worker/sync/system-notices.ts).
 */
export async function pushWanted(db: PortalDb): Promise<boolean> {
  const [runtime, profile] = await Promise.all([db.runtime.get('current'), db.profile.get('current')]);
  return profile !== undefined && (runtime?.pushContacts?.includes(profile.contactId) ?? false);
}
