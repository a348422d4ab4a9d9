import { isFinalState } from '../../contract/conversation-state.ts';
import { parseEntityKey, type EntityType } from '../../contract/hub.ts';
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
 *
 * The checks that need the database are batched (see AccessBatcher): every check asked while others
 * are on their way joins one set of queries, so a storm of returning subscriptions costs the pool a
 * few statements per batch instead of one or two per subscription. Nothing is cached: each answer
 * comes from rows read after it was asked for, as exact as checking it alone.
 */
export async function canSeeEntity(db: Db, principal: Principal, key: string): Promise<boolean> {
  const entity = parseEntityKey(key);
  if (!entity) return false;
  const { type, id } = entity;
  // The Peers board is what every signed-in user reads; its events carry ids, never text.
  if (type === 'PeerBoard') return true;
  // A contact's own events (profile changes) are theirs and their group's (shared series, below);
  // no counsellor needs them.
  if (type === 'Contact' && id === principal.contactId) return true;
  return batcherOf(db).check(principal, { type, id });
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
  return maySeeOneToOne(principal, conversation);
}

/** A one-to-one conversation (no meeting's): the child's own (not staff), or a counsellor's by counsellorMaySee. */
function maySeeOneToOne(
  principal: Principal,
  conversation: { agent_account_id: number | null; state: string; contact_id: number | null },
): boolean {
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

/** A check that needs the database: a series, a meeting, a conversation or another contact. */
interface PendingCheck {
  principal: Principal;
  entity: { type: Exclude<EntityType, 'PeerBoard'>; id: number };
  resolve(allowed: boolean): void;
  reject(error: unknown): void;
}

/** At most this many checks in one batch (the ids of a batch become one `in (...)` list). */
const MAX_CHECKS_PER_BATCH = 500;
/** Batches on their way at once: the rest wait and join the next, so a storm holds few pool connections. */
const MAX_BATCHES_IN_FLIGHT = 2;

/**
 * Coalesces entity checks: the checks asked within one turn of the event loop, and all those asked
 * while MAX_BATCHES_IN_FLIGHT batches are running, are answered together by one query per table
 * (conversations with their meetings, meetings, the series of other contacts, then the memberships
 * that decide). Identical checks share their rows. An answer is decided exactly as the one-at-a-time
 * functions above decide it, from rows read after it was asked; a failed query fails every check
 * of its batch (the hub answers the invocation with an error, as it did for a single check).
 */
class AccessBatcher {
  private waiting: PendingCheck[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(private readonly db: Db) {}

  check(principal: Principal, entity: PendingCheck['entity']): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ principal, entity, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0 || this.inFlight >= MAX_BATCHES_IN_FLIGHT) return;
    this.scheduled = true;
    // What else is asked in this turn of the event loop (a frame of many subscriptions) joins in.
    setImmediate(() => {
      this.scheduled = false;
      while (this.waiting.length > 0 && this.inFlight < MAX_BATCHES_IN_FLIGHT) {
        const batch = this.waiting.splice(0, MAX_CHECKS_PER_BATCH);
        this.inFlight++;
        void decideBatch(this.db, batch).finally(() => {
          this.inFlight--;
          this.schedule();
        });
      }
    });
  }
}

const batchers = new WeakMap<Db, AccessBatcher>();
function batcherOf(db: Db): AccessBatcher {
  let batcher = batchers.get(db);
  if (!batcher) batchers.set(db, (batcher = new AccessBatcher(db)));
  return batcher;
}

const unique = (ids: Iterable<number>) => [...new Set(ids)];
const pair = (accountId: number, seriesId: number) => `${accountId}:${seriesId}`;

async function decideBatch(db: Db, batch: PendingCheck[]): Promise<void> {
  try {
    const verdicts = await decide(db, batch);
    batch.forEach((check, i) => check.resolve(verdicts[i]!));
  } catch (error) {
    for (const check of batch) check.reject(error);
  }
}

async function decide(db: Db, batch: PendingCheck[]): Promise<boolean[]> {
  const idsOf = (type: PendingCheck['entity']['type']) =>
    unique(batch.filter((c) => c.entity.type === type).map((c) => c.entity.id));
  const conversationIds = idsOf('Conversation');
  const meetingIds = idsOf('Meeting');
  const contactIds = idsOf('Contact');
  const [conversationRows, meetingRows, contactRows] = await Promise.all([
    conversationIds.length === 0
      ? []
      : db
          .selectFrom('conversations')
          // A deleted meeting is nobody's: its chat reads as having no meeting series (refused).
          .leftJoin('meetings', (join) =>
            join
              .onRef('meetings.id', '=', 'conversations.meeting_id')
              .on('meetings.deleted_date', 'is', null),
          )
          .select([
            'conversations.id',
            'conversations.contact_id',
            'conversations.meeting_id',
            'conversations.agent_account_id',
            'conversations.state',
            'meetings.series_id as meeting_series_id',
          ])
          .where('conversations.id', 'in', conversationIds)
          .execute(),
    meetingIds.length === 0
      ? []
      : db
          .selectFrom('meetings')
          .select(['id', 'series_id'])
          .where('id', 'in', meetingIds)
          .where('deleted_date', 'is', null)
          .execute(),
    contactIds.length === 0
      ? []
      : db
          .selectFrom('series_memberships')
          .innerJoin('accounts', 'accounts.id', 'series_memberships.account_id')
          .select(['accounts.contact_id', 'series_memberships.series_id'])
          .where('accounts.contact_id', 'in', contactIds)
          .execute(),
  ]);
  const conversations = new Map(conversationRows.map((r) => [r.id, r]));
  const meetingSeries = new Map(meetingRows.map((r) => [r.id, r.series_id]));
  const seriesOfContact = new Map<number, number[]>();
  for (const row of contactRows) {
    if (row.contact_id === null) continue;
    seriesOfContact.set(row.contact_id, [...(seriesOfContact.get(row.contact_id) ?? []), row.series_id]);
  }

  // Per check: the series its account must be a member of (any one of them), or the answer already.
  const needs = batch.map((check): number[] | boolean => {
    const { type, id } = check.entity;
    switch (type) {
      case 'Series':
        return [id];
      case 'Meeting': {
        const series = meetingSeries.get(id);
        return series === undefined ? false : [series];
      }
      case 'Conversation': {
        const conversation = conversations.get(id);
        if (!conversation) return false;
        if (conversation.meeting_id !== null) {
          return conversation.meeting_series_id === null ? false : [conversation.meeting_series_id];
        }
        return maySeeOneToOne(check.principal, conversation);
      }
      case 'Contact':
        return seriesOfContact.get(id) ?? false;
    }
  });
  const accountIds = unique(
    batch.filter((_, i) => Array.isArray(needs[i])).map((c) => c.principal.accountId),
  );
  const seriesIds = unique(needs.flatMap((n) => (Array.isArray(n) ? n : [])));
  const memberships =
    accountIds.length === 0 || seriesIds.length === 0
      ? []
      : await db
          .selectFrom('series_memberships')
          .select(['account_id', 'series_id'])
          .where('account_id', 'in', accountIds)
          .where('series_id', 'in', seriesIds)
          .execute();
  const member = new Set(memberships.map((m) => pair(m.account_id, m.series_id)));
  return batch.map((check, i) => {
    const need = needs[i]!;
    if (!Array.isArray(need)) return need;
    return need.some((series) => member.has(pair(check.principal.accountId, series)));
  });
}
