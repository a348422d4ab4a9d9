import { staffEntry, type ProtectedEntry, type StaffArea } from './walk-entry.ts';
import { OWNER, SECRET, pdf } from './walk-fixtures.ts';
import { tryLogin } from '../../../harness/attack.ts';

/**
 * The areas of the staff API. Every /portal/staff route must fall in one; the walk then refuses it
 * to no token (401), to a child, a participant and the other staff role (403) - aimed at the
 * owner's real entities, so any write that slipped through shows in the owner's snapshot.
 */
export const STAFF_AREAS: StaffArea[] = [
  { prefix: '/portal/staff/queue', role: 'counsellor', server: 'barn', params: () => ({}) },
  {
    prefix: '/portal/staff/conversations',
    role: 'counsellor',
    server: 'barn',
    params: (fx) => ({ id: fx.barn.ownerChat }),
  },
  {
    prefix: '/portal/staff/meetings',
    role: 'leader',
    server: 'gruppstod',
    params: (fx) => ({
      id: fx.gruppstod.meeting,
      messageId: fx.gruppstod.homework,
      fileName: SECRET.homeworkFile,
    }),
  },
  {
    prefix: '/portal/staff/series',
    role: 'leader',
    server: 'gruppstod',
    params: (fx) => ({ id: fx.gruppstod.series }),
  },
  // Walked on a Peers server, aimed at the owner's post that waits (elsewhere Peers answers 404).
  {
    prefix: '/portal/staff/peers',
    role: 'counsellor',
    server: 'peers',
    params: (fx) => ({ kind: 'posts', id: fx.peers.pendingPost }),
    sharedByRole: 'moderation is the counsellors’ together: no counsellor owns a post',
  },
  { prefix: '/portal/staff/audit', role: 'admin', server: 'barn', params: () => ({}) },
  { prefix: '/portal/staff/login-record', role: 'admin', server: 'barn', params: () => ({}) },
  { prefix: '/portal/staff/feedback', role: 'admin', server: 'barn', params: () => ({}) },
  {
    prefix: '/portal/staff/accounts',
    role: 'admin',
    server: 'barn',
    params: (fx) => ({ id: fx.barn.roleTarget }),
  },
];

export const areaOf = (url: string) =>
  STAFF_AREAS.find((a) => url === a.prefix || url.startsWith(`${a.prefix}/`));

const counsellor = staffEntry('barn', 'counsellor');
const leader = staffEntry('gruppstod', 'leader');

const admin = (route: string, call: ProtectedEntry['call'], sees?: ProtectedEntry['owner']['sees']) => ({
  route,
  server: 'barn' as const,
  call,
  owner: { as: 'admin' as const, status: 200, sees },
  others: {},
});

const M = '/portal/staff/meetings';

/** What each staff route answers its own role; the refusals come from STAFF_AREAS. */
export const STAFF_ROUTES: ProtectedEntry[] = [
  counsellor('GET /portal/staff/queue', () => ({ path: '/portal/staff/queue' })),
  counsellor('GET /portal/staff/conversations', () => ({ path: '/portal/staff/conversations' })),
  counsellor('GET /portal/staff/conversations/:id/messages', (fx) => ({
    path: `/portal/staff/conversations/${fx.barn.ownerChat}/messages`,
  })),
  counsellor('POST /portal/staff/conversations/:id/accept', async (fx) => ({
    path: `/portal/staff/conversations/${await fx.barn.freshMail()}/accept`,
    json: {},
  })),
  counsellor(
    'POST /portal/staff/conversations/:id/messages',
    (fx) => ({
      path: `/portal/staff/conversations/${fx.barn.ownerMail}/messages`,
      json: { content: 'Svar' },
    }),
    201,
  ),
  // Notes for the next counsellor: on what the counsellor holds, by nobody else.
  counsellor('GET /portal/staff/conversations/:id/notes', (fx) => ({
    path: `/portal/staff/conversations/${fx.barn.ownerMail}/notes`,
  })),
  counsellor(
    'POST /portal/staff/conversations/:id/notes',
    (fx) => ({
      path: `/portal/staff/conversations/${fx.barn.ownerMail}/notes`,
      json: { content: 'Anteckning för nästa kurator' },
    }),
    201,
  ),
  counsellor('POST /portal/staff/conversations/:id/typing', (fx) => ({
    path: `/portal/staff/conversations/${fx.barn.ownerChat}/typing`,
    json: {},
  })),
  // A counsellor ends only what they hold: here a mail they have just answered.
  counsellor('POST /portal/staff/conversations/:id/resolve', async (fx) => ({
    path: `/portal/staff/conversations/${await fx.barn.answeredMail()}/resolve`,
    json: {},
  })),

  leader(
    `GET ${M}`,
    () => ({ path: M }),
    200,
    (fx) => fx.gruppstod.secrets[0]!,
  ),
  leader(
    `POST ${M}`,
    (fx) => ({
      path: M,
      json: {
        seriesId: fx.gruppstod.series,
        subject: 'Ny träff',
        description: '',
        startDate: new Date(Date.now() + 86_400_000).toISOString(),
        duration: 60,
      },
    }),
    201,
  ),
  leader(`PUT ${M}/:id`, async (fx) => ({
    path: `${M}/${await fx.gruppstod.scratchMeeting(false)}`,
    json: { subject: 'Flyttad träff' },
  })),
  ...(['cancel', 'start'] as const).map((action) =>
    leader(`POST ${M}/:id/${action}`, async (fx) => ({
      path: `${M}/${await fx.gruppstod.scratchMeeting(false)}/${action}`,
      json: {},
    })),
  ),
  leader(`DELETE ${M}/:id`, async (fx) => ({ path: `${M}/${await fx.gruppstod.scratchMeeting(false)}` })),
  leader(`POST ${M}/:id/end`, async (fx) => ({
    path: `${M}/${await fx.gruppstod.scratchMeeting(true)}/end`,
    json: {},
  })),
  leader(
    `POST ${M}/:id/messages`,
    (fx) => ({ path: `${M}/${fx.gruppstod.meeting}/messages`, json: { content: 'Välkomna!' } }),
    201,
  ),
  leader(
    `POST ${M}/:id/appendices`,
    (fx) => {
      const form = new FormData();
      form.set('name', 'schema.pdf');
      form.set('file', pdf('schema'), 'schema.pdf');
      return { path: `${M}/${fx.gruppstod.meeting}/appendices`, form };
    },
    201,
  ),
  leader(
    `GET ${M}/:id/private-messages`,
    (fx) => ({ path: `${M}/${fx.gruppstod.meeting}/private-messages` }),
    200,
    () => SECRET.homeworkText,
  ),
  leader(
    `GET ${M}/:id/messages`,
    (fx) => ({ path: `${M}/${fx.gruppstod.meeting}/messages` }),
    200,
    () => SECRET.groupText,
  ),
  leader(
    `GET ${M}/:id/appendices`,
    (fx) => ({ path: `${M}/${fx.gruppstod.meeting}/appendices` }),
    200,
    () => SECRET.appendixName,
  ),
  leader(
    `GET ${M}/:id/files/:messageId/:fileName`,
    (fx) => ({ path: `${M}/${fx.gruppstod.meeting}/files/${fx.gruppstod.homework}/${SECRET.homeworkFile}` }),
    200,
    () => SECRET.homeworkContent,
  ),
  // The audit log names the counsellor's acceptance of the owner's chat (and never its content).
  admin(
    'GET /portal/staff/audit',
    () => ({ path: '/portal/staff/audit?entityType=Conversation' }),
    (fx) => `"entityId":${fx.barn.ownerChat}`,
  ),
  // The login record names the owner's account after a wrong password (never the username).
  admin(
    'GET /portal/staff/login-record',
    async (fx) => {
      await tryLogin(fx.barn.server.url, OWNER.username, 'walk-fel-losenord', '203.0.113.250');
      return { path: `/portal/staff/login-record?kind=wrong_password&accountId=${fx.barn.ownerAccount}` };
    },
    (fx) => `"accountId":${fx.barn.ownerAccount},"kind":"wrong_password"`,
  ),
  // 'Hur kändes chatten?': counts and texts by channel and week, nothing of a chat or a child.
  admin('GET /portal/staff/feedback', () => ({ path: '/portal/staff/feedback' })),
  admin('PUT /portal/staff/accounts/:id/roles', (fx) => ({
    path: `/portal/staff/accounts/${fx.barn.roleTarget}/roles`,
    json: { roles: ['counsellor'] },
  })),
  leader('GET /portal/staff/series', () => ({ path: '/portal/staff/series' })),
  leader('GET /portal/staff/series/:id/participants', (fx) => ({
    path: `/portal/staff/series/${fx.gruppstod.series}/participants`,
  })),
  leader(
    'POST /portal/staff/series/:id/participants',
    (fx) => ({ path: `/portal/staff/series/${fx.gruppstod.series}/participants`, json: { name: 'Kim' } }),
    201,
  ),
];
