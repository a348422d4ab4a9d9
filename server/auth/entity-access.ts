import { isFinalState } from '../../contract/conversation-state.ts';
import { parseEntityKey } from '../../contract/hub.ts';
import type { Db } from '../db/database.ts';
import { isStaff, type Principal } from './principal.ts';

/** Series whose meetings this account may see: its memberships (participants and leaders alike). */
export async function visibleSeriesIds(db: Db, accountId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('series_memberships')
    .select('series_id')
    .where('account_id', '=', accountId)
    .execute();
  return rows.map((r) => r.series_id);
}

/**
 * Who may see an entity, for hub subscriptions and reads alike: its owner, a member of its meeting's
 * series (group leaders are members of the series they lead), or a counsellor for one-to-one chats.
 * Staff roles are kept apart: a group leader never reads a child's one-to-one chat and a counsellor
 * never reads a support group. Anything unknown is refused.
 */
export async function canSeeEntity(db: Db, principal: Principal, key: string): Promise<boolean> {
  const entity = parseEntityKey(key);
  if (!entity) return false;
  switch (entity.type) {
    case 'Contact':
      // A contact's own events (profile changes) are theirs and their group's; no counsellor needs them.
      return entity.id === principal.contactId || (await shareSeries(db, principal.accountId, entity.id));
    case 'Series':
      return isSeriesMember(db, principal.accountId, entity.id);
    case 'Meeting':
      return canSeeMeeting(db, principal, entity.id);
    case 'Conversation':
      return canSeeConversation(db, principal, entity.id);
    case 'PeerBoard':
      // The Peers board is what every signed-in user reads; its events carry ids, never text.
      return true;
  }
}

export async function isSeriesMember(db: Db, accountId: number, seriesId: number) {
  const row = await db
    .selectFrom('series_memberships')
    .select('series_id')
    .where('series_id', '=', seriesId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return !!row;
}

/** A deleted meeting is nobody's any more: its detail, its chat and their events are refused. */
export async function canSeeMeeting(db: Db, principal: Principal, meetingId: number) {
  const meeting = await db
    .selectFrom('meetings')
    .select('series_id')
    .where('id', '=', meetingId)
    .where('deleted_date', 'is', null)
    .executeTakeFirst();
  if (!meeting) return false;
  return isSeriesMember(db, principal.accountId, meeting.series_id);
}

/**
 * What a counsellor may see of a one-to-one conversation: their own (a chat they accepted, a mail
 * they answered), or one still waiting for anyone in the queue. A colleague's chat is not theirs.
 */
export function counsellorMaySee(
  row: { agent_account_id: number | null; state: string; contact_id: number | null },
  accountId: number,
): boolean {
  if (row.agent_account_id === accountId) return true;
  return row.agent_account_id === null && row.contact_id !== null && !isFinalState(row.state);
}

export async function canSeeConversation(db: Db, principal: Principal, conversationId: number) {
  const conversation = await db
    .selectFrom('conversations')
    .select(['contact_id', 'meeting_id', 'agent_account_id', 'state'])
    .where('id', '=', conversationId)
    .executeTakeFirst();
  if (!conversation) return false;
  if (conversation.meeting_id !== null) return canSeeMeeting(db, principal, conversation.meeting_id);
  if (conversation.contact_id === principal.contactId && !isStaff(principal)) return true;
  return (
    principal.roles.includes('counsellor') &&
    isStaff(principal) &&
    counsellorMaySee(conversation, principal.accountId)
  );
}

/** Whether two contacts share a support-group series (so one may read the other's name). */
export async function shareSeries(db: Db, accountId: number, otherContactId: number) {
  const row = await db
    .selectFrom('series_memberships as mine')
    .innerJoin('series_memberships as theirs', 'theirs.series_id', 'mine.series_id')
    .innerJoin('accounts', 'accounts.id', 'theirs.account_id')
    .select('mine.series_id')
    .where('mine.account_id', '=', accountId)
    .where('accounts.contact_id', '=', otherContactId)
    .executeTakeFirst();
  return !!row;
}
