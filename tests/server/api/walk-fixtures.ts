import pg from 'pg';
import { issueAssistantToken } from '../../../server/assistant/assistant-token.ts';
import { nowIso } from '../../../server/db/database.ts';
import {
  api,
  claimsOf,
  createStaffAccount,
  createTestDatabase,
  login,
  signAccessToken,
  startTestServer,
  type TestServer,
} from '../../../harness/test-server.ts';
import { captureRoutes, send, type RegisteredRoute } from './route-walk.ts';
import type { PeersWorld } from './walk-peers-world.ts';

export type ServerName = 'barn' | 'gruppstod' | 'assistent' | 'peers';
/**
 * Who calls. `owner` owns the entities the walk aims at; `other` is another child (in the group
 * world: a child outside the group); `peer` is another participant of the owner's group.
 */
export type ActorName =
  | 'owner'
  | 'other'
  | 'peer'
  | 'participant'
  | 'counsellor'
  | 'leader'
  | 'throwaway'
  | 'changer'
  | 'demo'
  | 'colleague'
  | 'admin'
  /**
   * The public assistant token of SPEC §6: nobody's, but a key to the assistant. Every world has one,
   * signed with its own server's keys, so a refusal elsewhere is about the token's kind, not its key.
   */
  | 'assistant';

/** Strings only the owner (and the staff serving them) may ever read. */
/** What the owner wrote in the meeting that was then deleted: nobody reads it any more. */
export const SECRET_OF_GONE = 'HEMLIGT-borttagen-träff-Q7';

export const SECRET = {
  device: 'HEMLIG-enhet-Q7',
  chatSubject: 'HEMLIGT-chattämne-Q7',
  chatText: 'HEMLIG-chattext-Q7',
  counsellorReply: 'HEMLIGT-kuratorsvar-Q7',
  mailSubject: 'HEMLIGT-brevämne-Q7',
  mailText: 'HEMLIG-brevtext-Q7',
  contactMessageSubject: 'HEMLIGT-meddelandeämne-Q7',
  contactMessageText: 'HEMLIG-meddelandetext-Q7',
  groupText: 'HEMLIG-gruppchatt-Q7',
  groupReply: 'HEMLIGT-gruppsvar-Q7',
  homeworkText: 'HEMLIG-läxtext-Q7',
  homeworkFile: 'walk-hemlig-laxa.pdf',
  homeworkContent: 'HEMLIGT-filinnehall-Q7',
  appendixName: 'walk-hemlig-bilaga.pdf',
} as const;
/** `name`: the name the owner chose to be seen by (a new account has none; never the username). */
export const OWNER = { username: 'walk-owner', password: 'walk-losenord-1', name: 'Walkaren' };
/** Changes its password in the walk, which ends its sessions: not the owner, whose token goes on. */
export const CHANGER = { username: 'walk-changer', password: 'walk-losenord-5' };
export const MEETINGS = '/portal/features/meetings/meetingsapplicationfeature-id';
export const CONVERSATIONS = '/portal/features/conversations/conversationsapplication-id';
export const CONTACTS = '/portal/features/contacts/contactsapplicationfeature-id';
export const HUB = '/hubs/portalaccountevents';

export const pdf = (content: string) =>
  new Blob([`%PDF-1.4\n% ${content}\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`], { type: 'application/pdf' });

export interface World {
  name: ServerName;
  server: TestServer;
  /** The X-App-Variant value the world's client sends. */
  variant: 'Barn' | 'Gruppstod' | 'Assistent' | 'Peers';
  routes: RegisteredRoute[];
  tokens: Partial<Record<ActorName, string>>;
  /** An access token of the owner's that has been revoked: worth no more than none. */
  revoked: string;
  /** A token of an account deleted since: as good as none, though it has not expired. */
  deleted: string;
  /** The owner's token, signed by the server, expired a minute ago. */
  expired: string;
  /** What nobody but the owner (and their staff) may read; `peer` legitimately sees the rest. */
  secrets: string[];
  peerSecrets: string[];
  /** Everything the owner and their staff see, to prove that other callers changed nothing. */
  snapshot(): Promise<unknown>;
  dispose(): Promise<void>;
}

export interface BarnWorld extends World {
  /** A staff account whose roles the administrator sets (and whose sessions that ends). */
  roleTarget: number;
  ownerChat: number;
  ownerMail: number;
  ownerContact: number;
  /** The owner's account id (what the login record names). */
  ownerAccount: number;
  notification: number;
  contactMessage: number;
  freshMail(): Promise<number>;
  /** A new mail of the owner's that the counsellor has answered (so it is theirs). */
  answeredMail(): Promise<number>;
  /** A new hub connection of the owner; `bound` also makes its first long poll (binds the transport). */
  hubConnection(bound: boolean): Promise<string>;
}

/** A meeting's ids, as the gruppstod routes are aimed at them. */
export interface MeetingIds {
  meeting: number;
  groupConversation: number;
  homework: number;
  appendix: number;
}

export interface GruppstodWorld extends World, MeetingIds {
  series: number;
  /** A meeting the owner took part in (chat, homework, appendix), then deleted by its leader. */
  gone: MeetingIds;
  freshHomework(): Promise<number>;
  scratchMeeting(started: boolean): Promise<number>;
}

export type AssistentWorld = World;

export interface Fixture {
  barn: BarnWorld;
  gruppstod: GruppstodWorld;
  /** The Assistent variant: Barn's routes and the virtual assistant's (SPEC §6). */
  assistent: AssistentWorld;
  /** The Peers variant: Barn's routes, with Peers answering instead of 404. */
  peers: PeersWorld;
}

type Req = { token?: string; body?: unknown; method?: string };

export function caller(server: TestServer, variant: string) {
  /** A setup call that must succeed: setup failures are the fixture's bugs, not findings. */
  return async (path: string, req: Req = {}) => {
    const res = await api(server.url, path, { ...req, variant });
    if (res.status >= 300) throw new Error(`setup ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Record<string, unknown> & { value: Array<Record<string, unknown>> };
  };
}

/**
 * A server on a database of the walk's own. pg's Pool.end() resolves before its clients have said
 * goodbye, and dropping a PostgreSQL database WITH (FORCE) then kills them mid-way (unhandled
 * "terminating connection" errors); so the database is dropped only when no connection is left.
 */
export async function startServer(variant: ServerName) {
  const database = await createTestDatabase();
  // The walk negotiates many hub connections for one owner, faster than unused ones time out.
  const { result: server, routes } = await captureRoutes(() =>
    startTestServer({
      variant,
      databaseUrl: database.url,
      build: { hub: { maxConnectionsPerAccount: 200 } },
    }),
  );
  const dispose = async () => {
    await server.dispose();
    if (database.url.startsWith('postgres')) await untilNoConnections(database.url);
    await database.drop();
  };
  return { server, routes, dispose };
}

async function untilNoConnections(url: string) {
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: url.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  try {
    for (let i = 0; i < 100; i++) {
      const res = await admin.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
        [name],
      );
      if (res.rows[0]?.n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await admin.end();
  }
}

export async function revokedToken(url: string, username: string, password = '') {
  const token = (await login(url, username, password)).access_token;
  const res = await send(
    url,
    'POST',
    { path: '/connect/revocation', urlencoded: { token, client_id: 'portal-web' } },
    undefined,
    null,
  );
  if (res.status !== 200) throw new Error(`setup revocation: ${res.status}`);
  return token;
}

/** A token of an account that then deleted itself. */
export async function deletedToken(url: string, token: string, variant: string) {
  const res = await api(url, '/portal/deleteContact', { token, body: {}, variant });
  if (res.status !== 200) throw new Error(`setup deleteContact: ${res.status}`);
  return token;
}

export const expiredTokenOf = (server: TestServer, token: string, roles: string[]) =>
  signAccessToken(server, { ...claimsOf(token), roles }, -60);

export async function staffLogins(server: TestServer) {
  const url = server.url;
  // A second counsellor who accepted none of the owner's conversations.
  await createStaffAccount(server, 'walk-kollega', 'walk-kollega-losen', ['counsellor'], 'Kollega');
  return {
    counsellor: (await login(url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token,
    colleague: (await login(url, 'walk-kollega', 'walk-kollega-losen', 'portal-staff')).access_token,
    leader: (await login(url, 'gruppledare', 'gruppledare-losenord', 'portal-staff')).access_token,
    admin: (await login(url, 'admin', 'admin-losenord', 'portal-staff')).access_token,
  };
}

/** An assistant token signed by `server` for the issuer `token` names (its site's own). */
export async function assistantTokenOf(server: TestServer, token: string): Promise<string> {
  const { iss } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as {
    iss: string;
  };
  return (await issueAssistantToken(server.ctx.keys, iss)).access_token;
}

export async function startBarn(): Promise<BarnWorld> {
  const { server, routes, dispose } = await startServer('barn');
  const call = caller(server, 'Barn');
  const register = async (username: string, password: string, properties = {}) => {
    await call('/portal/api/accounts/registercontact', { body: { username, password, properties } });
    return (await login(server.url, username, password)).access_token;
  };
  const owner = await register(OWNER.username, OWNER.password, { device: SECRET.device });
  await call(`${CONTACTS}/update`, { token: owner, body: { name: OWNER.name } });
  const tokens = {
    owner,
    other: await register('walk-other', 'walk-losenord-2'),
    throwaway: await register('walk-throwaway', 'walk-losenord-3'),
    changer: await register(CHANGER.username, CHANGER.password),
    demo: (await login(server.url, 'demo', 'demo-losenord')).access_token,
    participant: (await login(server.url, 'DEMOKOD-0003')).access_token,
    assistant: await assistantTokenOf(server, owner),
    ...(await staffLogins(server)),
  };
  const deleted = await deletedToken(server.url, await register('walk-deleted', 'walk-losenord-6'), 'Barn');
  const staff = { token: tokens.counsellor };

  const chat = await call('/portal/chat', {
    token: owner,
    body: { subject: SECRET.chatSubject, text: SECRET.chatText },
  });
  const ownerChat = Number(chat.id);
  await call(`/portal/staff/conversations/${ownerChat}/accept`, { ...staff, body: {} });
  await call(`/portal/staff/conversations/${ownerChat}/messages`, {
    ...staff,
    body: { content: SECRET.counsellorReply },
  });
  const mail = await call('/portal/mail', {
    token: owner,
    body: { subject: SECRET.mailSubject, text: SECRET.mailText },
  });
  const ownerMail = Number(mail.id);
  // The counsellor's answer to mail is what gives the owner a notification.
  await call(`/portal/staff/conversations/${ownerMail}/messages`, { ...staff, body: { content: 'Svar' } });
  const notification = Number((await call('/portal/api/notifications', { token: owner })).value[0]!.id);
  const ownerAccountRow = await call('/portal/accounts', { token: owner });
  const ownerContact = Number(ownerAccountRow.contactId);
  const ownerAccount = Number(ownerAccountRow.id);
  // No API creates contact messages: the organisation writes them into the database.
  const contactMessage = await server.ctx.db
    .insertInto('contact_messages')
    .values({
      contact_id: ownerContact,
      is_active: 1,
      is_read: 0,
      message_date: nowIso(),
      subject: SECRET.contactMessageSubject,
      text: SECRET.contactMessageText,
      thread: null,
      thread_post: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  const ownerReads = [
    `${CONVERSATIONS}/conversations`,
    `${CONVERSATIONS}/messages?conversation=${ownerChat}`,
    `${CONVERSATIONS}/messages?conversation=${ownerMail}`,
    '/portal/api/notifications',
    '/portal/contactmessages',
    `${CONTACTS}/detail`,
    '/portal/accounts',
  ];
  return {
    name: 'barn',
    server,
    dispose,
    variant: 'Barn',
    routes,
    tokens,
    revoked: await revokedToken(server.url, OWNER.username, OWNER.password),
    deleted,
    expired: await expiredTokenOf(server, owner, ['child']),
    secrets: [OWNER.username, ...Object.values(SECRET)],
    peerSecrets: [],
    roleTarget: await createStaffAccount(server, 'walk-rollbyte', 'walk-rollbyte-losen', ['counsellor']),
    ownerChat,
    ownerMail,
    ownerContact,
    ownerAccount,
    notification,
    contactMessage: contactMessage.id,
    async snapshot() {
      const reads = await Promise.all(ownerReads.map((p) => call(p, { token: owner })));
      return [...reads, await call('/portal/staff/conversations', staff)];
    },
    async freshMail() {
      return Number((await call('/portal/mail', { token: owner, body: { text: 'Ny fråga' } })).id);
    },
    async answeredMail() {
      const id = Number((await call('/portal/mail', { token: owner, body: { text: 'Ny fråga' } })).id);
      await call(`/portal/staff/conversations/${id}/messages`, { ...staff, body: { content: 'Svar' } });
      return id;
    },
    async hubConnection(bound) {
      const res = await send(
        server.url,
        'POST',
        { path: `${HUB}/negotiate?negotiateVersion=1` },
        owner,
        null,
      );
      const connectionToken = String((JSON.parse(res.body) as { connectionToken: string }).connectionToken);
      if (bound) await send(server.url, 'GET', { path: `${HUB}?id=${connectionToken}` }, owner, null);
      return connectionToken;
    },
  };
}

/**
 * A private message to the group leaders, with a file when `file` is given; `declaredType` is the
 * content type the form claims for it, sent only when set.
 */
export function homeworkForm(
  meeting: number,
  text: string,
  file?: { name: string; content: Blob; declaredType?: string } | null,
) {
  const form = new FormData();
  form.set('Subject', 'Uppgift');
  form.set('Text', text);
  form.set('MessageType', '1');
  form.set('MeetingRuid', String(meeting));
  if (file) {
    form.set('DocumentName', file.name);
    if (file.declaredType !== undefined) form.set('DocumentContentType', file.declaredType);
    form.set('DocumentContent', file.content, file.name);
  }
  return form;
}

export async function startGruppstod(): Promise<GruppstodWorld> {
  const { server, routes, dispose } = await startServer('gruppstod');
  const call = caller(server, 'Gruppstod');
  const owner = (await login(server.url, 'DEMOKOD-0001')).access_token;
  const tokens = {
    owner,
    // The owner is the participant whose access to the leaders' API the walk checks.
    participant: owner,
    peer: (await login(server.url, 'DEMOKOD-0002')).access_token,
    other: (await login(server.url, 'demo', 'demo-losenord')).access_token,
    assistant: await assistantTokenOf(server, owner),
    ...(await staffLogins(server)),
  };
  const leader = { token: tokens.leader };
  // A participant the leader added, who then deleted their account.
  const added = (await call('/portal/staff/series/1/participants', {
    ...leader,
    body: { name: 'Borta' },
  })) as {
    personalCode?: string;
  };
  const deleted = await deletedToken(
    server.url,
    (await login(server.url, String(added.personalCode))).access_token,
    'Gruppstod',
  );
  const list = (await call(`${MEETINGS}/meetings`, { token: owner })).value;
  const running = list.find((m) => m.state === 'InProgress')!;
  const meeting = Number(running.id);
  const series = Number((running.series as { id: number }).id);
  const started = await call(`/portal/staff/meetings/${meeting}/start`, { ...leader, body: {} });
  const groupConversation = Number((started.conversation as { id: number }).id);
  await call(`/portal/staff/meetings/${meeting}/messages`, {
    ...leader,
    body: { content: SECRET.groupText },
  });
  await call('/portal/conversationmessage', {
    token: owner,
    body: { conversation: groupConversation, content: SECRET.groupReply },
  });
  const upload = async (path: string, token: string, form: FormData) => {
    const res = await send(server.url, 'POST', { path, form }, token, 'Gruppstod');
    if (res.status >= 300) throw new Error(`setup ${path}: ${res.status} ${res.body}`);
    return Number((JSON.parse(res.body) as { value: number }).value);
  };
  const homework = await upload(
    `${MEETINGS}/meetingmessage`,
    owner,
    homeworkForm(meeting, SECRET.homeworkText, {
      name: SECRET.homeworkFile,
      content: pdf(SECRET.homeworkContent),
    }),
  );
  const appendixForm = new FormData();
  appendixForm.set('name', SECRET.appendixName);
  appendixForm.set('file', pdf('bilaga'), SECRET.appendixName);
  const appendix = await upload(`/portal/staff/meetings/${meeting}/appendices`, tokens.leader, appendixForm);

  // The same again in a second running meeting, which its leader then deletes.
  const goneMeeting = Number(
    (
      await call('/portal/staff/meetings', {
        ...leader,
        body: {
          seriesId: series,
          subject: SECRET_OF_GONE,
          description: '',
          startDate: new Date().toISOString(),
          duration: 60,
        },
      })
    ).id,
  );
  const goneStart = await call(`/portal/staff/meetings/${goneMeeting}/start`, { ...leader, body: {} });
  const goneConversation = Number((goneStart.conversation as { id: number }).id);
  await call('/portal/conversationmessage', {
    token: owner,
    body: { conversation: goneConversation, content: SECRET_OF_GONE },
  });
  const gone: MeetingIds = {
    meeting: goneMeeting,
    groupConversation: goneConversation,
    homework: await upload(`${MEETINGS}/meetingmessage`, owner, homeworkForm(goneMeeting, SECRET_OF_GONE)),
    appendix: await upload(`/portal/staff/meetings/${goneMeeting}/appendices`, tokens.leader, appendixForm),
  };
  await call(`/portal/staff/meetings/${goneMeeting}`, { ...leader, method: 'DELETE' });

  const ownerReads = [
    `${MEETINGS}/meetings`,
    `${MEETINGS}/meetingmessages?meetingId=${meeting}`,
    `${MEETINGS}/appendices?MeetingId=${meeting}`,
    `/portal/groupconversationmessages?conversationId=${groupConversation}`,
    `${CONVERSATIONS}/conversations`,
  ];
  return {
    name: 'gruppstod',
    server,
    dispose,
    variant: 'Gruppstod',
    routes,
    tokens,
    revoked: await revokedToken(server.url, 'DEMOKOD-0001'),
    deleted,
    expired: await expiredTokenOf(server, owner, ['participant']),
    secrets: [String(running.subject), ...Object.values(SECRET)],
    peerSecrets: [SECRET.homeworkText, SECRET.homeworkFile, SECRET.homeworkContent],
    meeting,
    series,
    groupConversation,
    homework,
    appendix,
    gone,
    async snapshot() {
      const reads = await Promise.all(ownerReads.map((p) => call(p, { token: owner })));
      const staffReads = await Promise.all(
        ['/portal/staff/meetings', `/portal/staff/meetings/${meeting}/private-messages`].map((p) =>
          call(p, leader),
        ),
      );
      return [...reads, ...staffReads];
    },
    freshHomework: () => upload(`${MEETINGS}/meetingmessage`, owner, homeworkForm(meeting, 'Till radering')),
    async scratchMeeting(start) {
      const created = await call('/portal/staff/meetings', {
        ...leader,
        body: {
          seriesId: series,
          subject: 'Extraträff',
          description: '',
          startDate: new Date(Date.now() + 3600_000).toISOString(),
          duration: 60,
        },
      });
      const id = Number(created.id);
      if (start) await call(`/portal/staff/meetings/${id}/start`, { ...leader, body: {} });
      return id;
    },
  };
}

/**
 * The Assistent variant, for the assistant's routes (its other routes are Barn's, walked there). Its
 * `expired` token is an assistant token that expired a minute ago; `revoked` and `deleted` are a
 * child's, which are no key to the assistant either.
 */
export async function startAssistent(): Promise<AssistentWorld> {
  const { server, routes, dispose } = await startServer('assistent');
  const call = caller(server, 'Assistent');
  const register = async (username: string, password: string, properties = {}) => {
    await call('/portal/api/accounts/registercontact', { body: { username, password, properties } });
    return (await login(server.url, username, password)).access_token;
  };
  const assistant = String((await call('/portal/api/assistant/token', { method: 'POST' })).access_token);
  const { iss } = JSON.parse(Buffer.from(assistant.split('.')[1]!, 'base64url').toString('utf8')) as {
    iss: string;
  };
  const expired = (await issueAssistantToken(server.ctx.keys, iss, -60)).access_token;
  const tokens = {
    owner: await register(OWNER.username, OWNER.password, { device: SECRET.device }),
    assistant,
    counsellor: (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token,
    admin: (await login(server.url, 'admin', 'admin-losenord', 'portal-staff')).access_token,
  };
  return {
    name: 'assistent',
    server,
    dispose,
    variant: 'Assistent',
    routes,
    tokens,
    revoked: await revokedToken(server.url, OWNER.username, OWNER.password),
    deleted: await deletedToken(server.url, await register('walk-deleted', 'walk-losenord-6'), 'Assistent'),
    expired,
    secrets: [OWNER.username, SECRET.device],
    peerSecrets: [],
    // The assistant stores nothing: there is nothing of anyone's to change.
    snapshot: () => Promise.resolve([]),
  };
}
