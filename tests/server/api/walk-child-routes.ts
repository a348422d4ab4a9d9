import { createECDH, randomBytes } from 'node:crypto';
import type { ProtectedEntry } from './walk-entry.ts';
import {
  CHANGER,
  CONTACTS,
  CONVERSATIONS,
  HUB,
  MEETINGS,
  OWNER,
  SECRET,
  homeworkForm,
} from './walk-fixtures.ts';

/**
 * The child app's routes (SPEC §7) on the barn server: the owner is a registered child with a chat, a
 * mail, a notification and a contact message; `other` is a second child; a group leader is as much a
 * stranger to a child's one-to-one chat as another child is.
 */
export const BARN_ROUTES: ProtectedEntry[] = [
  {
    route: 'GET /portal/accounts',
    server: 'barn',
    call: () => ({ path: '/portal/accounts' }),
    owner: { status: 200, sees: () => OWNER.username },
    others: { other: 'own' },
  },
  {
    route: 'GET /portal/features/contacts/:featureId/detail',
    server: 'barn',
    call: () => ({ path: `${CONTACTS}/detail` }),
    owner: { status: 200, sees: () => SECRET.device },
    others: { other: 'own' },
  },
  {
    route: 'POST /portal/features/contacts/:featureId/update',
    server: 'barn',
    call: () => ({ path: `${CONTACTS}/update`, json: { properties: { gender: 'female' } } }),
    owner: { status: 200 },
    others: { other: 'own' },
  },
  {
    route: 'GET /portal/features/contacts/:featureId/contactname',
    server: 'barn',
    call: (fx) => ({ path: `${CONTACTS}/contactname?contactId=${fx.barn.ownerContact}` }),
    owner: { status: 200, sees: () => OWNER.name },
    others: { other: 'denied', leader: 'denied' },
  },
  {
    // A password change ends every session of the account, so the walk's owner is `changer`.
    route: 'POST /portal/api/accounts/changePassword',
    server: 'barn',
    call: (_fx, actor) => {
      const own = actor === 'changer' ? CHANGER.password : OWNER.password;
      return { path: '/portal/api/accounts/changePassword', json: { oldPassword: own, password: own } };
    },
    owner: { as: 'changer', status: 200 },
    // The old password is checked against the caller's own account: the owner's is no key to it.
    others: { other: { status: 400 } },
  },
  {
    route: 'POST /portal/deleteContact',
    server: 'barn',
    call: () => ({ path: '/portal/deleteContact', json: {} }),
    owner: { as: 'throwaway', status: 200 },
    others: { other: { skip: 'takes no id: it can only ever delete the caller' } },
  },
  {
    route: 'POST /portal/createclientlogs',
    server: 'barn',
    call: () => ({ path: '/portal/createclientlogs', json: { message: 'Ett fel', level: 'error' } }),
    owner: { status: 201 },
    others: { other: 'own' },
  },
  {
    route: 'GET /portal/features/conversations/:appId/conversations',
    server: 'barn',
    call: (fx) => ({ path: `${CONVERSATIONS}/conversations?conversation=${fx.barn.ownerChat}` }),
    owner: { status: 200, sees: () => SECRET.chatSubject },
    // Staff work only through the staff API: a staff token is refused by the child app's API.
    others: { other: 'own', leader: 'denied', counsellor: 'denied' },
  },
  {
    route: 'GET /portal/features/conversations/:appId/messages',
    server: 'barn',
    call: (fx) => ({ path: `${CONVERSATIONS}/messages?conversation=${fx.barn.ownerChat}` }),
    owner: { status: 200, sees: () => SECRET.counsellorReply },
    others: { other: 'denied', leader: 'denied' },
  },
  {
    route: 'POST /portal/conversationmessage',
    server: 'barn',
    call: (fx) => ({
      path: '/portal/conversationmessage',
      json: { conversation: fx.barn.ownerChat, content: 'Hej' },
    }),
    owner: { status: 201 },
    others: { other: 'denied', leader: 'denied' },
  },
  {
    route: 'POST /portal/features/conversations/:appId/activity',
    server: 'barn',
    call: (fx) => ({
      path: `${CONVERSATIONS}/activity`,
      json: { conversation: fx.barn.ownerChat, type: 'Read' },
    }),
    owner: { status: 200 },
    others: { other: 'denied', leader: 'denied' },
  },
  {
    route: 'GET /portal/features/conversations/:appId/conversationConnections',
    server: 'barn',
    call: (fx) => ({ path: `${CONVERSATIONS}/conversationConnections?conversation=${fx.barn.ownerChat}` }),
    owner: { status: 200 },
    others: { other: 'denied', leader: 'denied' },
  },
  {
    route: 'GET /portal/features/conversations/:appId/queuePosition',
    server: 'barn',
    call: (fx) => ({ path: `${CONVERSATIONS}/queuePosition?conversation=${fx.barn.ownerChat}` }),
    owner: { status: 200 },
    others: { other: 'denied', leader: 'denied' },
  },
  {
    // 'När är det lugnast?': a channel's aggregate, the same for every child; no one's data.
    route: 'GET /portal/features/conversations/:appId/calmTimes',
    server: 'barn',
    call: () => ({ path: `${CONVERSATIONS}/calmTimes` }),
    owner: { status: 200 },
    others: { other: 'own' },
  },
  {
    route: 'GET /portal/features/conversations/:appId/channels',
    server: 'barn',
    call: () => ({ path: `${CONVERSATIONS}/channels` }),
    owner: { status: 200 },
    others: { other: 'own' },
  },
  {
    // 409 with the status is the answer for a child who already has a chat (SPEC §8). Walked before
    // POST /portal/chat, where the other child starts one.
    route: 'GET /portal/chatAccountStatus',
    server: 'barn',
    call: () => ({ path: '/portal/chatAccountStatus' }),
    owner: { status: 409, sees: () => 'HasActive' },
    others: { other: 'own' },
  },
  {
    // The owner already chats; a child may have one chat at a time, so a child without one starts it.
    route: 'POST /portal/chat',
    server: 'barn',
    call: () => ({ path: '/portal/chat', json: { subject: 'Chatt', text: '' } }),
    owner: { as: 'demo', status: 200 },
    others: { other: 'own', participant: 'denied' },
  },
  {
    route: 'POST /portal/mail',
    server: 'barn',
    call: () => ({ path: '/portal/mail', json: { subject: 'Fråga', text: 'Hur gör jag?' } }),
    owner: { status: 200 },
    others: { other: 'own', participant: 'denied' },
  },
  ...(['cancel', 'resolve', 'delete'] as const).map((action): ProtectedEntry => ({
    // The owner ends a mail of their own made for this; the others aim at the owner's chat.
    route: `PUT /portal/features/conversations/:appId/${action}`,
    server: 'barn',
    call: async (fx, actor) => ({
      path: `${CONVERSATIONS}/${action}`,
      json: { conversation: actor === 'owner' ? await fx.barn.freshMail() : fx.barn.ownerChat },
    }),
    owner: { status: 200 },
    others: { other: 'denied', leader: 'denied', counsellor: 'denied' },
  })),
  {
    route: 'PUT /portal/features/conversations/:appId/rate',
    server: 'barn',
    call: (fx) => ({ path: `${CONVERSATIONS}/rate`, json: { conversation: fx.barn.ownerChat, rating: 5 } }),
    owner: { status: 200 },
    others: { other: 'denied', leader: 'denied', counsellor: 'denied' },
  },
  {
    // 'Hur kändes chatten?': the owner's chat is still live, so even the owner is told it is too soon.
    route: 'POST /portal/features/conversations/:appId/feedback',
    server: 'barn',
    call: (fx) => ({
      path: `${CONVERSATIONS}/feedback`,
      json: { conversation: fx.barn.ownerChat, answer: 'helped' },
    }),
    owner: { status: 409 },
    others: { other: 'denied', leader: 'denied', counsellor: 'denied' },
  },
  {
    route: 'POST /portal/features/conversations/:appId/feedbackText',
    server: 'barn',
    call: (fx) => ({
      path: `${CONVERSATIONS}/feedbackText`,
      json: { conversation: fx.barn.ownerChat, text: 'Bra' },
    }),
    owner: { status: 409 },
    others: { other: 'denied', leader: 'denied', counsellor: 'denied' },
  },
  {
    route: 'GET /portal/api/notifications',
    server: 'barn',
    call: () => ({ path: '/portal/api/notifications' }),
    owner: { status: 200, sees: (fx) => `Conversation:${fx.barn.ownerMail}` },
    others: { other: 'own' },
  },
  {
    route: 'GET /portal/api/notifications/count',
    server: 'barn',
    call: () => ({ path: '/portal/api/notifications/count' }),
    owner: { status: 200, sees: () => 'NewMessage' },
    others: { other: 'own' },
  },
  {
    route: 'POST /portal/api/notifications/process',
    server: 'barn',
    call: (fx) => ({ path: '/portal/api/notifications/process', json: { id: fx.barn.notification } }),
    owner: { status: 200 },
    others: { other: 'denied', leader: 'denied' },
  },
  {
    route: 'POST /portal/api/notifications/delete',
    server: 'barn',
    call: (fx) => ({
      path: '/portal/api/notifications/delete',
      json: { NotificationId: fx.barn.notification },
    }),
    owner: { status: 200 },
    others: { other: 'denied', leader: 'denied' },
  },
  {
    route: 'GET /portal/contactmessages',
    server: 'barn',
    call: () => ({ path: '/portal/contactmessages' }),
    owner: { status: 200, sees: () => SECRET.contactMessageText },
    others: { other: 'own' },
  },
  ...(['processmessage', 'deletemessage'] as const).map((action): ProtectedEntry => ({
    route: `POST /portal/features/contacts/:featureId/${action}/`,
    server: 'barn',
    call: (fx) => ({ path: `${CONTACTS}/${action}/`, json: { Id: fx.barn.contactMessage } }),
    owner: { status: 200 },
    others: { other: 'denied', leader: 'denied' },
  })),
  // Web Push: each caller has only their own login's subscription; staff have none (no staff
  // token may even see the key), and no answer holds an endpoint.
  {
    route: 'GET /portal/push/key',
    server: 'barn',
    call: () => ({ path: '/portal/push/key' }),
    owner: { status: 200 },
    others: { other: 'own', leader: 'denied', counsellor: 'denied' },
  },
  {
    route: 'POST /portal/push/subscriptions',
    server: 'barn',
    call: () => ({ path: '/portal/push/subscriptions', json: pushSubscription() }),
    owner: { status: 204 },
    others: { other: 'own', leader: 'denied', counsellor: 'denied' },
  },
  {
    route: 'DELETE /portal/push/subscriptions',
    server: 'barn',
    call: () => ({ path: '/portal/push/subscriptions' }),
    owner: { status: 204 },
    others: { other: 'own', leader: 'denied', counsellor: 'denied' },
  },
  {
    route: 'GET /connect/userinfo',
    server: 'barn',
    call: () => ({ path: '/connect/userinfo' }),
    owner: { status: 200, sees: () => OWNER.name },
    others: { other: 'own' },
  },
];

/**
 * The hub's HTTP routes: negotiate takes the bearer token; the long-polling routes take it again
 * together with the connection token, so another account holding the connection token gets 403.
 * (The WebSocket transport is an upgrade handler, not a route; tests/server/hub covers it.)
 */
export const HUB_ROUTES: ProtectedEntry[] = [
  {
    route: `POST ${HUB}/negotiate`,
    server: 'barn',
    call: () => ({ path: `${HUB}/negotiate?negotiateVersion=1` }),
    owner: { status: 200, sees: () => 'connectionToken' },
    others: { other: 'own' },
  },
  {
    route: `GET ${HUB}`,
    server: 'barn',
    call: async (fx) => ({ path: `${HUB}?id=${await fx.barn.hubConnection(false)}` }),
    owner: { status: 200 },
    others: { other: 'denied', leader: 'denied' },
  },
  {
    route: `POST ${HUB}`,
    server: 'barn',
    call: async (fx) => ({
      path: `${HUB}?id=${await fx.barn.hubConnection(true)}`,
      text: '{"protocol":"json","version":1}\u001e',
    }),
    owner: { status: 200 },
    others: { other: 'denied', leader: 'denied' },
  },
  {
    route: `DELETE ${HUB}`,
    server: 'barn',
    call: async (fx) => ({ path: `${HUB}?id=${await fx.barn.hubConnection(false)}` }),
    owner: { status: 202 },
    others: { other: 'denied', leader: 'denied' },
  },
];

/**
 * The support-group routes on the gruppstod server: the owner is a participant with homework in the
 * running meeting; `other` is a child outside the group; `peer` is another participant, who shares
 * the meeting but not the owner's homework; a counsellor has no business in a group.
 */
export const GROUP_ROUTES: ProtectedEntry[] = [
  {
    route: 'GET /portal/features/meetings/:featureId/meetings',
    server: 'gruppstod',
    call: () => ({ path: `${MEETINGS}/meetings` }),
    owner: { status: 200, sees: (fx) => fx.gruppstod.secrets[0]! },
    others: { other: 'own', counsellor: 'denied', leader: 'denied' },
  },
  {
    route: 'GET /portal/features/meetings/:featureId/meeting',
    server: 'gruppstod',
    call: (fx) => ({ path: `${MEETINGS}/meeting?meetingId=${fx.gruppstod.meeting}` }),
    owner: { status: 200, sees: (fx) => fx.gruppstod.secrets[0]! },
    others: { other: 'denied', counsellor: 'denied' },
  },
  {
    route: 'GET /portal/features/meetings/:featureId/appendices',
    server: 'gruppstod',
    call: (fx) => ({ path: `${MEETINGS}/appendices?MeetingId=${fx.gruppstod.meeting}` }),
    owner: { status: 200, sees: () => SECRET.appendixName },
    others: { other: 'denied', counsellor: 'denied' },
  },
  {
    route: 'GET /portal/features/meetings/:featureId/meetingmessages',
    server: 'gruppstod',
    call: (fx) => ({ path: `${MEETINGS}/meetingmessages?meetingId=${fx.gruppstod.meeting}` }),
    owner: { status: 200, sees: () => SECRET.homeworkText },
    others: { other: 'denied', peer: 'own', counsellor: 'denied' },
  },
  {
    route: 'POST /portal/features/meetings/:featureId/meetingmessage',
    server: 'gruppstod',
    call: (fx) => ({
      path: `${MEETINGS}/meetingmessage`,
      form: homeworkForm(fx.gruppstod.meeting, 'Hej gruppledare'),
    }),
    owner: { status: 200 },
    others: { other: 'denied', counsellor: 'denied' },
  },
  {
    route: 'DELETE /portal/features/meetings/:featureId/meetingmessage',
    server: 'gruppstod',
    call: async (fx, actor) => ({
      path: `${MEETINGS}/meetingmessage?meetingMessageId=${actor === 'owner' ? await fx.gruppstod.freshHomework() : fx.gruppstod.homework}`,
    }),
    owner: { status: 200 },
    others: { other: 'denied', peer: 'denied', counsellor: 'denied', leader: 'denied' },
  },
  {
    route: 'GET /portal/meetingappendix',
    server: 'gruppstod',
    call: (fx) => ({
      path: `/portal/meetingappendix?MeetingId=${fx.gruppstod.meeting}&AppendixId=${fx.gruppstod.appendix}`,
    }),
    owner: { status: 200, sees: () => 'bilaga' },
    others: { other: 'denied', counsellor: 'denied' },
  },
  {
    route: 'GET /portal/meetingmessagefile',
    server: 'gruppstod',
    call: (fx) => ({
      path: `/portal/meetingmessagefile?meetingId=${fx.gruppstod.meeting}&meetingMessageId=${fx.gruppstod.homework}&fileName=${SECRET.homeworkFile}`,
    }),
    owner: { status: 200, sees: () => SECRET.homeworkContent },
    others: { other: 'denied', peer: 'denied', counsellor: 'denied' },
  },
  {
    route: 'GET /portal/groupconversationmessages',
    server: 'gruppstod',
    call: (fx) => ({
      path: `/portal/groupconversationmessages?conversationId=${fx.gruppstod.groupConversation}`,
    }),
    owner: { status: 200, sees: () => SECRET.groupText },
    others: { other: 'denied', counsellor: 'denied' },
  },
];

/** A browser's push subscription at a known push service (nothing is ever sent to it in the walk). */
function pushSubscription() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/walk-${randomBytes(8).toString('hex')}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}
