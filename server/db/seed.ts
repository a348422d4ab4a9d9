import type { Db } from './database.ts';
import { hashPassword, personalCodeDigest, verifyPassword } from '../auth/passwords.ts';
import type { Role } from '../auth/principal.ts';
import { type MeetingState } from '../../contract/meetings.ts';
import { MEETING_STATE } from '../../contract/meeting-state.ts';
import { insertAccounts } from '../auth/accounts.ts';

/** The demo logins of ARCHITECTURE.md; printed by `npm start`. */
export const DEMO_LOGINS = {
  child: { username: 'demo', password: 'demo-losenord' },
  participantCodes: ['DEMOKOD-0001', 'DEMOKOD-0002', 'DEMOKOD-0003'],
  counsellor: { username: 'kurator', password: 'kurator-losenord' },
  groupLeader: { username: 'gruppledare', password: 'gruppledare-losenord' },
  admin: { username: 'admin', password: 'admin-losenord' },
} as const;

/** Whether a username and password (or, with no password, a personal code) are a demo login's. */
export function isDemoCredential(
  username: string,
  password: string,
  normalizeCode: (code: string) => string,
) {
  const name = username.trim().toLowerCase();
  if (password === '') {
    return DEMO_LOGINS.participantCodes.some((code) => normalizeCode(code) === normalizeCode(username));
  }
  return [DEMO_LOGINS.child, DEMO_LOGINS.counsellor, DEMO_LOGINS.groupLeader, DEMO_LOGINS.admin].some(
    (login) => login.username === name && login.password === password,
  );
}

/**
 * Whether the database still holds a demo login with its published password (a counsellor who can
 * read every queued child, among others). Such a site must not be reachable from other machines.
 */
export async function hasDemoLogins(db: Db): Promise<boolean> {
  const logins = [DEMO_LOGINS.child, DEMO_LOGINS.counsellor, DEMO_LOGINS.groupLeader, DEMO_LOGINS.admin];
  for (const login of logins) {
    const row = await db
      .selectFrom('accounts')
      .select('password_hash')
      .where('username', '=', login.username)
      .where('deleted_date', 'is', null)
      .executeTakeFirst();
    if (row?.password_hash && (await verifyPassword(login.password, row.password_hash))) return true;
  }
  for (const code of DEMO_LOGINS.participantCodes) {
    const row = await db
      .selectFrom('accounts')
      .select('id')
      .where('personal_code_digest', '=', await personalCodeDigest(code))
      .where('deleted_date', 'is', null)
      .executeTakeFirst();
    if (row) return true;
  }
  return false;
}

const DEMO_GROUP = 'Stödgrupp för unga med separerade föräldrar';
const HOUR = 3600_000;
const MINUTE = 60_000;

/**
 * Creates the demo accounts and support group once, and re-times the group's meetings on every
 * start so that one is in progress, one later today, one on a later day, one completed and one
 * cancelled, whenever the app is started.
 */
export async function seedDemoData(db: Db, now = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const child = await ensureAccount(trx, 'Demo', ['child'], {
      username: DEMO_LOGINS.child.username,
      password: DEMO_LOGINS.child.password,
    });
    await ensureAccount(trx, 'Kim', ['counsellor'], DEMO_LOGINS.counsellor);
    await ensureAccount(trx, 'Administratör', ['admin'], DEMO_LOGINS.admin);
    const leader = await ensureAccount(trx, 'Gruppledare Sara', ['group_leader'], DEMO_LOGINS.groupLeader);
    const names = ['Alex', 'Robin', 'Sam'];
    const participants: number[] = [];
    for (const [i, code] of DEMO_LOGINS.participantCodes.entries()) {
      participants.push(await ensureAccount(trx, names[i] ?? code, ['participant'], { code }));
    }
    await ensureChannels(trx);
    await trx
      .insertInto('contact_properties')
      .values([
        {
          contact_id: await contactOf(trx, child),
          property_id: 'birthYear',
          value: String(now.getFullYear() - 14),
        },
        { contact_id: await contactOf(trx, child), property_id: 'gender', value: 'female' },
      ])
      .onConflict((oc) => oc.doNothing())
      .execute();

    await ensureContactMessage(trx, await contactOf(trx, child), now);

    const seriesId = await ensureGroup(trx, [leader, ...participants], leader);
    await retimeMeetings(trx, seriesId, now);
  });
}

async function contactOf(db: Db, accountId: number) {
  const row = await db
    .selectFrom('accounts')
    .select('contact_id')
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return row.contact_id;
}

async function ensureAccount(
  db: Db,
  name: string,
  roles: Role[],
  login: { username: string; password: string } | { code: string },
): Promise<number> {
  const existing =
    'code' in login
      ? await db
          .selectFrom('accounts')
          .select('id')
          .where('personal_code_digest', '=', await personalCodeDigest(login.code))
          .executeTakeFirst()
      : await db
          .selectFrom('accounts')
          .select('id')
          .where('username', '=', login.username)
          .executeTakeFirst();
  if (existing) return existing.id;
  return createAccount(db, name, roles, login);
}

/** A new account with its contact and roles: a login by username and password, or by personal code. */
export async function createAccount(
  db: Db,
  name: string,
  roles: Role[],
  login: { username: string; password: string } | { code: string },
): Promise<number> {
  const [made] = await insertAccounts(db, [
    {
      name,
      roles,
      login:
        'code' in login
          ? { codeDigest: await personalCodeDigest(login.code) }
          : { username: login.username, passwordHash: await hashPassword(login.password) },
    },
  ]);
  return made!.accountId;
}

/**
 * One message from the organisation to the demo child (SPEC §3 Contact message), so my pages shows
 * one; there is no API that sends them. Once read or deleted it stays so across restarts.
 */
async function ensureContactMessage(db: Db, contactId: number, now: Date) {
  const any = await db
    .selectFrom('contact_messages')
    .select('id')
    .where('contact_id', '=', contactId)
    .executeTakeFirst();
  if (any) return;
  await db
    .insertInto('contact_messages')
    .values({
      contact_id: contactId,
      is_active: 1,
      is_read: 0,
      message_date: now.toISOString(),
      subject: 'Välkommen till Stödlinjen',
      text: 'Hej och välkommen!\nHär får du meddelanden från oss.\nDu kan alltid chatta eller skriva till en kurator.',
      thread: null,
      thread_post: null,
    })
    .execute();
}

async function ensureChannels(db: Db) {
  const any = await db.selectFrom('channels').select('id').executeTakeFirst();
  if (any) return;
  await db
    .insertInto('channels')
    .values([
      // eslint-disable-next-line no-restricted-syntax -- the channel's Swedish name, not the variant
      { name: 'Chatt', system_type: 'chat' },
      { name: 'Mejl', system_type: 'mail' },
    ])
    .execute();
}

async function ensureGroup(db: Db, members: number[], leader: number): Promise<number> {
  let group = await db
    .selectFrom('support_groups')
    .select('id')
    .where('name', '=', DEMO_GROUP)
    .executeTakeFirst();
  group ??= await db
    .insertInto('support_groups')
    .values({
      name: DEMO_GROUP,
      information_html:
        '<p><b>Välkommen till gruppen!</b></p><p>Här träffas vi en gång i veckan och pratar om hur det är när föräldrar separerar. Det du säger i gruppen stannar i gruppen.</p>',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  let series = await db.selectFrom('series').select('id').where('group_id', '=', group.id).executeTakeFirst();
  series ??= await db
    .insertInto('series')
    .values({ group_id: group.id, subject: 'Vårens träffar' })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const account of members) {
    await db
      .insertInto('series_memberships')
      .values({
        series_id: series.id,
        account_id: account,
        role: account === leader ? 'leader' : 'participant',
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  return series.id;
}

interface DemoMeeting {
  subject: string;
  start: Date;
  minutes: number;
  state: MeetingState;
}

export function demoMeetingTimes(now: Date): DemoMeeting[] {
  const endOfDay = new Date(now);
  endOfDay.setHours(23, 59, 0, 0);
  // "Later today" must stay today even when the app is started late in the evening.
  const laterToday = new Date(Math.min(now.getTime() + 2 * HOUR, endOfDay.getTime() - 30 * MINUTE));
  const laterDay = new Date(now.getTime() + 3 * 24 * HOUR);
  return [
    {
      subject: 'Träff 3: Känslor och tankar',
      start: new Date(now.getTime() - 10 * MINUTE),
      minutes: 90,
      state: MEETING_STATE.InProgress,
    },
    {
      subject: 'Träff 4: Familjen',
      start: laterToday < now ? new Date(now.getTime() + MINUTE) : laterToday,
      minutes: 60,
      state: MEETING_STATE.NotStarted,
    },
    { subject: 'Träff 5: Framtiden', start: laterDay, minutes: 60, state: MEETING_STATE.NotStarted },
    {
      subject: 'Träff 2: Att prata om det svåra',
      start: new Date(now.getTime() - 7 * 24 * HOUR),
      minutes: 60,
      state: MEETING_STATE.Completed,
    },
    {
      subject: 'Träff 6: Inställd träff',
      start: new Date(now.getTime() + 5 * 24 * HOUR),
      minutes: 60,
      state: MEETING_STATE.Cancelled,
    },
  ];
}

async function retimeMeetings(db: Db, seriesId: number, now: Date) {
  for (const m of demoMeetingTimes(now)) {
    const values = {
      start_date: m.start.toISOString(),
      end_date: new Date(m.start.getTime() + m.minutes * MINUTE).toISOString(),
      duration: m.minutes,
      state: m.state,
      session_state: m.state,
      is_active: m.state === MEETING_STATE.Cancelled ? 0 : 1,
    };
    const existing = await db
      .selectFrom('meetings')
      .select('id')
      .where('series_id', '=', seriesId)
      .where('subject', '=', m.subject)
      .executeTakeFirst();
    if (existing) {
      await db.updateTable('meetings').set(values).where('id', '=', existing.id).execute();
    } else {
      await db
        .insertInto('meetings')
        .values({
          ...values,
          series_id: seriesId,
          subject: m.subject,
          description: `Vi pratar om ${m.subject.split(': ')[1]?.toLowerCase() ?? 'livet'}.\nTa med dig dina tankar!`,
          description_content_type: 'text/plain',
          meeting_type: 'Meeting',
          conversation_id: null,
        })
        .execute();
    }
  }
}
