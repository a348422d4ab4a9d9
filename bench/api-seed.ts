/**
 * Realistic volume for the API benchmarks (npm run bench:api, bench:explain), written straight into
 * the server's database through its own db module: children with a history of chats and mail
 * threads, notifications and messages from the organisation; support groups with meetings, group
 * chats and private messages; counsellors with their conversations and a queue; a Peers board.
 * Every child and staff account has the same password, hashed once in the server's own format at a
 * low scrypt cost (N=2^10: logins verify it as any other, in a millisecond instead of 50, so that
 * 600 sign-ins do not take minutes); the support groups' participants sign in with personal codes,
 * as in the Gruppstöd app.
 */
import type { Insertable } from 'kysely';
import { inChunks, type Db } from '../server/db/database.ts';
import type { Database } from '../server/db/schema.ts';
import { hashPassword, personalCodeDigest } from '../server/auth/passwords.ts';
import { insertAccounts } from '../server/auth/accounts.ts';
import { conversationRow, messageRow } from '../server/conversations/writes.ts';
import { NEW_MESSAGE_NOTIFICATION } from '../contract/notifications.ts';

export const BENCH_PASSWORD = 'last-losenord-1';
/** scrypt at N=2^10: logins verify it as any other, in a millisecond instead of 50. */
const BENCH_SCRYPT_COST = { N: 1024, r: 8, p: 1 };

export interface SeededChild {
  username: string;
  /** The mail thread the child writes in during the run. */
  openMailId: number;
  conversationIds: number[];
}

export interface SeededParticipant {
  code: string;
  meetingIds: number[];
  /** The completed meetings' group chats of the participant's series. */
  groupChatIds: number[];
}

export interface Seeded {
  children: SeededChild[];
  participants: SeededParticipant[];
  counsellors: string[];
  leaders: string[];
  rows: Record<string, number>;
}

export interface SeedSize {
  children: number;
  /** Closed chats and mail threads per child, besides the open mail thread. */
  historyPerChild: number;
  messagesPerConversation: number;
  notificationsPerChild: number;
  /** Participants (personal-code accounts) of the support groups. */
  participants: number;
  /** Participants per support-group series. */
  participantsPerSeries: number;
  meetingsPerSeries: number;
  groupChatMessages: number;
  /** Every n-th child waits in the queue with a new chat. */
  queuedEvery: number;
  peerPosts: number;
}

export const DEFAULT_SIZE: SeedSize = {
  children: 500,
  historyPerChild: 8,
  messagesPerConversation: 12,
  notificationsPerChild: 30,
  participants: 100,
  participantsPerSeries: 10,
  meetingsPerSeries: 12,
  groupChatMessages: 40,
  queuedEvery: 5,
  peerPosts: 1000,
};

const DAY = 24 * 3600_000;
const COUNSELLORS = 10;

/** A deterministic pseudo-random sequence, so that every run seeds the same data. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1664525 + 1013904223) % 4294967296;
    return s / 4294967296;
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** `names.length` accounts with `role`, made as the server makes them (insertAccounts). */
async function createAccounts(
  db: Db,
  names: string[],
  role: 'child' | 'participant' | 'counsellor' | 'group_leader',
  login: { hash: string } | { codeDigests: string[] },
) {
  const createdDate = iso(Date.now() - 400 * DAY);
  const made = await insertAccounts(
    db,
    names.map((name, i) => ({
      name,
      roles: [role],
      login:
        'hash' in login
          ? { username: name, passwordHash: login.hash }
          : { codeDigest: login.codeDigests[i]! },
      createdDate,
    })),
  );
  return { names, contactIds: made.map((m) => m.contactId), ids: made.map((m) => m.accountId) };
}

const numbered = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

/** Seeds `size` into `db` (one transaction) and says what it wrote and whom the bench can sign in as. */
export async function seedVolume(db: Db, size: SeedSize = DEFAULT_SIZE): Promise<Seeded> {
  const hash = await hashPassword(BENCH_PASSWORD, BENCH_SCRYPT_COST);
  const codes = numbered('LAST-KOD', size.participants);
  const codeDigests = await Promise.all(codes.map((code) => personalCodeDigest(code)));
  return db.transaction().execute((trx) => seedInto(trx, size, hash, codes, codeDigests));
}

/** What every part of a seeding shares: the transaction, the size, the sequence, the clock, the counts. */
interface Seeding {
  db: Db;
  size: SeedSize;
  rnd: () => number;
  now: number;
  count(table: string, n: number): void;
}

type Accounts = Awaited<ReturnType<typeof createAccounts>>;
type SeedMessage = { conversationId: number; contact: boolean; contactId: number | null; at: number };

/** The counsellors, the leaders (one per five series), the children with their profile, the participants. */
async function seedAccounts(s: Seeding, hash: string, codes: string[], codeDigests: string[]) {
  const { db, size } = s;
  const counsellors = await createAccounts(db, numbered('last-kurator', COUNSELLORS), 'counsellor', { hash });
  const seriesCount = Math.ceil(size.participants / size.participantsPerSeries);
  const leaders = await createAccounts(
    db,
    numbered('last-ledare', Math.ceil(seriesCount / 5)),
    'group_leader',
    {
      hash,
    },
  );
  const childNames = numbered('last-barn', size.children);
  const children = await createAccounts(db, childNames, 'child', { hash });
  const participants = await createAccounts(db, codes, 'participant', { codeDigests });
  // The two profile properties the staff console shows beside a child's conversation.
  for (const part of inChunks(children.contactIds)) {
    await db
      .insertInto('contact_properties')
      .values(
        part.flatMap((id, i) => [
          { contact_id: id, property_id: 'birthYear', value: String(2010 + (i % 6)) },
          { contact_id: id, property_id: 'gender', value: i % 2 ? 'female' : 'male' },
        ]),
      )
      .execute();
  }
  s.count(
    'accounts',
    children.ids.length + participants.ids.length + counsellors.ids.length + leaders.ids.length,
  );
  return { counsellors, leaders, children, participants, seriesCount };
}

interface Planned {
  child: number;
  row: Insertable<Database['conversations']>;
  open: boolean;
}

/**
 * Conversations: a history of closed chats and mail per child, one open mail thread each, and
 * every n-th child waiting in the queue with a new chat; then their messages.
 */
async function seedConversations(s: Seeding, children: Accounts, counsellors: Accounts) {
  const { db, size, rnd, now } = s;
  const { contactIds } = children;
  const channels = await db.selectFrom('channels').select(['id', 'system_type']).execute();
  const channelOf = (type: string) => channels.find((c) => c.system_type === type)?.id ?? null;
  const planned: Planned[] = [];
  for (let c = 0; c < size.children; c++) {
    for (let h = 0; h < size.historyPerChild; h++) {
      const chat = h % 2 === 0;
      const logged = now - (h + 1) * 7 * DAY - rnd() * DAY;
      const agent = counsellors.ids[Math.floor(rnd() * COUNSELLORS)]!;
      planned.push({
        child: c,
        open: false,
        row: conversationRow({
          contact_id: contactIds[c]!,
          channel_id: channelOf(chat ? 'chat' : 'mail'),
          system_type: chat ? 'chat' : 'mail',
          subject: chat ? '' : `Fråga ${h}`,
          state: 'Resolved',
          logged_date: iso(logged),
          closed_date: iso(logged + 3600_000),
          agent_account_id: agent,
          contact_read_date: iso(logged + 3600_000),
          last_agent_message_date: iso(logged + 1800_000),
          last_contact_message_date: iso(logged + 1700_000),
          live_since: chat ? iso(logged + 60_000) : null,
        }),
      });
    }
    const mailLogged = now - rnd() * 3 * DAY;
    planned.push({
      child: c,
      open: true,
      row: conversationRow({
        contact_id: contactIds[c]!,
        channel_id: channelOf('mail'),
        system_type: 'mail',
        subject: 'Hur gör jag?',
        state: c % 2 ? 'Responded' : 'New',
        logged_date: iso(mailLogged),
        agent_account_id: c % 2 ? counsellors.ids[c % COUNSELLORS]! : null,
        last_agent_message_date: c % 2 ? iso(mailLogged + 3600_000) : null,
        last_contact_message_date: iso(mailLogged),
      }),
    });
    if (c % size.queuedEvery === 0) {
      planned.push({
        child: c,
        open: false,
        row: conversationRow({
          contact_id: contactIds[c]!,
          channel_id: channelOf('chat'),
          system_type: 'chat',
          subject: '',
          state: 'New',
          logged_date: iso(now - rnd() * 600_000),
          last_contact_ping_date: iso(now),
        }),
      });
    }
  }
  const conversationIds: number[] = [];
  for (const part of inChunks(planned)) {
    const ids = await db
      .insertInto('conversations')
      .values(part.map((p) => p.row))
      .returning('id')
      .execute();
    conversationIds.push(...ids.map((r) => r.id));
  }
  s.count('conversations', conversationIds.length);

  const messages: SeedMessage[] = [];
  planned.forEach((p, i) => {
    const start = Date.parse(p.row.logged_date);
    const n = p.open ? 4 : p.row.state === 'New' ? 1 : size.messagesPerConversation;
    for (let m = 0; m < n; m++) {
      messages.push({
        conversationId: conversationIds[i]!,
        contact: m % 2 === 0,
        contactId: m % 2 === 0 ? contactIds[p.child]! : null,
        at: start + m * 60_000,
      });
    }
  });
  await insertMessages(db, messages, counsellors.ids[0]!);
  s.count('conversation_messages', messages.length);
  return { planned, conversationIds };
}

/** Notifications, and messages from the organisation. */
async function seedNotices(s: Seeding, children: Accounts, conversationIds: number[]) {
  const { db, size, now } = s;
  const notifications = children.ids.flatMap((accountId, c) =>
    Array.from({ length: size.notificationsPerChild }, (_, n) => ({
      account_id: accountId,
      entity: `Conversation:${conversationIds[c * (size.historyPerChild + 1)] ?? 0}`,
      notification_type: NEW_MESSAGE_NOTIFICATION,
      is_processed: n % 3 === 0 ? 0 : 1,
      created_date: iso(now - n * 2 * DAY),
    })),
  );
  for (const part of inChunks(notifications)) await db.insertInto('notifications').values(part).execute();
  s.count('notifications', notifications.length);
  const contactMessages = children.contactIds.flatMap((contactId) =>
    Array.from({ length: 4 }, (_, n) => ({
      contact_id: contactId,
      is_active: 1,
      is_read: n > 0 ? 1 : 0,
      message_date: iso(now - n * 20 * DAY),
      subject: `Meddelande ${n}`,
      text: 'Hej! Här är ett meddelande från oss.',
      thread: null,
      thread_post: null,
    })),
  );
  for (const part of inChunks(contactMessages))
    await db.insertInto('contact_messages').values(part).execute();
  s.count('contact_messages', contactMessages.length);
}

/**
 * Support groups: each series has its participants and one leader (each leader leads five
 * series); meetings in the past (completed, with a group chat) and in the future; private
 * messages to the leaders.
 */
async function seedSupportGroups(s: Seeding, participants: Accounts, leaders: Accounts, seriesCount: number) {
  const { db, size, now } = s;
  const group = await db
    .insertInto('support_groups')
    .values({ name: 'Stödgrupp (last)', information_html: '<p>Information</p>' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const seriesIds = (
    await db
      .insertInto('series')
      .values(Array.from({ length: seriesCount }, (_, i) => ({ group_id: group.id, subject: `Serie ${i}` })))
      .returning('id')
      .execute()
  ).map((r) => r.id);
  const memberships = participants.ids.map((accountId, c) => ({
    series_id: seriesIds[Math.floor(c / size.participantsPerSeries)]!,
    account_id: accountId,
    role: 'participant',
  }));
  seriesIds.forEach((seriesId, i) =>
    memberships.push({ series_id: seriesId, account_id: leaders.ids[Math.floor(i / 5)]!, role: 'leader' }),
  );
  for (const part of inChunks(memberships)) await db.insertInto('series_memberships').values(part).execute();
  s.count('series_memberships', memberships.length);

  const groupChatsBySeries = new Map<number, number[]>();
  const meetingRows: Array<{ seriesId: number; start: number; completed: boolean }> = [];
  for (const seriesId of seriesIds) {
    for (let m = 0; m < size.meetingsPerSeries; m++) {
      const start = now + (m - size.meetingsPerSeries / 2) * 7 * DAY;
      meetingRows.push({ seriesId, start, completed: start < now });
    }
  }
  const meetingIds: number[] = [];
  for (const part of inChunks(meetingRows)) {
    const ids = await db
      .insertInto('meetings')
      .values(
        part.map((m) => ({
          series_id: m.seriesId,
          subject: 'Träff',
          description: 'Vi ses och pratar.',
          description_content_type: 'text/plain',
          start_date: iso(m.start),
          end_date: iso(m.start + 90 * 60_000),
          duration: 90,
          state: m.completed ? 'Completed' : 'NotStarted',
          session_state: m.completed ? 'Completed' : 'NotStarted',
          meeting_type: 'Meeting',
          conversation_id: null,
          is_active: 1,
        })),
      )
      .returning('id')
      .execute();
    meetingIds.push(...ids.map((r) => r.id));
  }
  s.count('meetings', meetingIds.length);
  const groupMessages: SeedMessage[] = [];
  for (const [i, m] of meetingRows.entries()) {
    if (!m.completed) continue;
    const conversation = await db
      .insertInto('conversations')
      .values(
        conversationRow({
          meeting_id: meetingIds[i]!,
          system_type: 'groupchat',
          subject: 'Träff',
          state: 'Resolved',
          logged_date: iso(m.start),
          closed_date: iso(m.start + 90 * 60_000),
          agent_account_id: leaders.ids[0]!,
        }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('meetings')
      .set({ conversation_id: conversation.id })
      .where('id', '=', meetingIds[i]!)
      .execute();
    groupChatsBySeries.set(m.seriesId, [...(groupChatsBySeries.get(m.seriesId) ?? []), conversation.id]);
    const seriesIndex = seriesIds.indexOf(m.seriesId);
    for (let n = 0; n < size.groupChatMessages; n++) {
      const member = seriesIndex * size.participantsPerSeries + (n % size.participantsPerSeries);
      groupMessages.push({
        conversationId: conversation.id,
        contact: n % 5 !== 0,
        contactId: n % 5 !== 0 ? (participants.contactIds[member] ?? null) : null,
        at: m.start + n * 60_000,
      });
    }
  }
  await insertMessages(db, groupMessages, leaders.ids[0]!);
  s.count('conversations', [...groupChatsBySeries.values()].flat().length);
  s.count('conversation_messages', groupMessages.length);

  const meetingMessages = memberships
    .filter((m) => m.role === 'participant')
    .flatMap((m) => {
      const meetingId = meetingIds[seriesIds.indexOf(m.series_id) * size.meetingsPerSeries]!;
      return [0, 1].map((n) => ({
        meeting_id: meetingId,
        account_id: m.account_id,
        subject: 'Läxa',
        text: 'Här är min läxa.',
        message_type: 1,
        sender_type: 'Participant',
        created_date: iso(now - (30 - n) * DAY),
      }));
    });
  for (const part of inChunks(meetingMessages))
    await db.insertInto('meeting_messages').values(part).execute();
  s.count('meeting_messages', meetingMessages.length);
  return { seriesIds, meetingIds, groupChatsBySeries };
}

/** The Peers board: published posts with replies, and some waiting for moderation. */
async function seedPeers(s: Seeding, children: Accounts) {
  const { db, size, now } = s;
  const { ids: accountIds, names: childNames } = children;
  const posts = Array.from({ length: size.peerPosts }, (_, p) => {
    const author = p % size.children;
    const created = now - (size.peerPosts - p) * 3600_000;
    return {
      author_account_id: accountIds[author]!,
      author_name: childNames[author]!,
      subject: `Inlägg ${p}`,
      text: 'Hur gör ni när det känns tungt?',
      state: p % 20 === 0 ? ('pending' as const) : ('published' as const),
      reject_reason: null,
      created_date: iso(created),
      published_date: p % 20 === 0 ? null : iso(created + 600_000),
    };
  });
  const postIds: number[] = [];
  for (const part of inChunks(posts)) {
    const ids = await db.insertInto('peer_posts').values(part).returning('id').execute();
    postIds.push(...ids.map((r) => r.id));
  }
  const replies = postIds.flatMap((postId, p) =>
    posts[p]!.state === 'published'
      ? [1, 2, 3].map((r) => {
          const author = (p + r * 7) % size.children;
          return {
            post_id: postId,
            author_account_id: accountIds[author]!,
            author_name: childNames[author]!,
            text: 'Jag brukar prata med någon.',
            state: r === 3 && p % 10 === 0 ? ('pending' as const) : ('published' as const),
            reject_reason: null,
            created_date: posts[p]!.published_date!,
            published_date: r === 3 && p % 10 === 0 ? null : posts[p]!.published_date!,
          };
        })
      : [],
  );
  for (const part of inChunks(replies)) await db.insertInto('peer_replies').values(part).execute();
  s.count('peer_posts', posts.length);
  s.count('peer_replies', replies.length);
}

/** The parts in order (the sequence is drawn in that order: the same seed, the same data). */
async function seedInto(
  db: Db,
  size: SeedSize,
  hash: string,
  codes: string[],
  codeDigests: string[],
): Promise<Seeded> {
  const rows: Record<string, number> = {};
  const s: Seeding = {
    db,
    size,
    rnd: random(15),
    now: Date.now(),
    count: (table, n) => (rows[table] = (rows[table] ?? 0) + n),
  };
  const accounts = await seedAccounts(s, hash, codes, codeDigests);
  const { planned, conversationIds } = await seedConversations(s, accounts.children, accounts.counsellors);
  await seedNotices(s, accounts.children, conversationIds);
  const groups = await seedSupportGroups(s, accounts.participants, accounts.leaders, accounts.seriesCount);
  await seedPeers(s, accounts.children);

  const children = accounts.children.names.map((username, c): SeededChild => {
    const own = planned.map((p, i) => (p.child === c ? conversationIds[i]! : -1)).filter((id) => id >= 0);
    const openIndex = planned.findIndex((p) => p.child === c && p.open);
    return { username, openMailId: conversationIds[openIndex]!, conversationIds: own };
  });
  const participants = codes.map((code, p): SeededParticipant => {
    const series = Math.floor(p / size.participantsPerSeries);
    return {
      code,
      meetingIds: groups.meetingIds.slice(
        series * size.meetingsPerSeries,
        (series + 1) * size.meetingsPerSeries,
      ),
      groupChatIds: groups.groupChatsBySeries.get(groups.seriesIds[series]!) ?? [],
    };
  });
  return {
    children,
    participants,
    counsellors: accounts.counsellors.names,
    leaders: accounts.leaders.names,
    rows,
  };
}

async function insertMessages(db: Db, messages: SeedMessage[], agentAccountId: number) {
  for (const part of inChunks(messages)) {
    await db
      .insertInto('conversation_messages')
      .values(
        part.map((m) =>
          messageRow(
            {
              conversationId: m.conversationId,
              authorKind: m.contact ? 'contact' : 'agent',
              contactId: m.contact ? m.contactId : null,
              agentAccountId: m.contact ? null : agentAccountId,
              authorName: m.contact ? 'Barn' : 'Kurator',
              message: 'Ett meddelande av ungefär den längd som ett barn skriver i en chatt.',
              loggedDate: iso(m.at),
            },
            false,
          ),
        ),
      )
      .execute();
  }
}
