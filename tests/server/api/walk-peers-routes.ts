import { staffEntry, type ProtectedEntry } from './walk-entry.ts';
import { PEERS, PEER_SECRET, PUBLISHED_SUBJECT } from './walk-peers-world.ts';

/**
 * Peers on a Peers server. Another child reads neither the owner's unapproved or
 * rejected post nor the owner's unapproved reply, and cannot answer or report them; no child route
 * changes or deletes a post (the walk's route list would name one), and moderation is the staff
 * area's, refused to children there. A staff token is no key to the young people's board.
 */
export const PEERS_ROUTES: ProtectedEntry[] = [
  {
    route: `GET ${PEERS}/posts`,
    server: 'peers',
    call: () => ({ path: `${PEERS}/posts` }),
    owner: { status: 200, sees: () => PUBLISHED_SUBJECT },
    others: { other: 'own', counsellor: 'denied' },
  },
  {
    route: `GET ${PEERS}/my-posts`,
    server: 'peers',
    call: () => ({ path: `${PEERS}/my-posts` }),
    owner: { status: 200, sees: () => PEER_SECRET.rejectReason },
    others: { other: 'own', counsellor: 'denied' },
  },
  {
    route: `GET ${PEERS}/posts/:id`,
    aim: 'an unapproved post',
    server: 'peers',
    call: (fx) => ({ path: `${PEERS}/posts/${fx.peers.pendingPost}` }),
    owner: { status: 200, sees: () => PEER_SECRET.pendingText },
    others: { other: 'denied', counsellor: 'denied' },
  },
  {
    route: `GET ${PEERS}/posts/:id`,
    aim: 'a rejected post',
    server: 'peers',
    call: (fx) => ({ path: `${PEERS}/posts/${fx.peers.rejectedPost}` }),
    owner: { status: 200, sees: () => PEER_SECRET.rejectReason },
    others: { other: 'denied', counsellor: 'denied' },
  },
  {
    // The post is everyone's; the owner's reply to it is nobody else's until a counsellor approves it.
    route: `GET ${PEERS}/posts/:id`,
    aim: 'a published post with an unapproved reply',
    server: 'peers',
    call: (fx) => ({ path: `${PEERS}/posts/${fx.peers.publishedPost}` }),
    owner: { status: 200, sees: () => PEER_SECRET.pendingReply },
    others: { other: { status: 200 }, counsellor: 'denied' },
  },
  {
    route: `POST ${PEERS}/posts`,
    server: 'peers',
    call: () => ({ path: `${PEERS}/posts`, json: { subject: 'Mitt inlägg', text: 'Egen text' } }),
    owner: { status: 201 },
    others: { other: 'own', counsellor: 'denied' },
  },
  {
    // The owner answers a published post; the others aim at the owner's post that waits.
    route: `POST ${PEERS}/posts/:id/replies`,
    server: 'peers',
    call: (fx, actor) => ({
      path: `${PEERS}/posts/${actor === 'owner' ? fx.peers.publishedPost : fx.peers.pendingPost}/replies`,
      json: { text: 'Jag med' },
    }),
    owner: { status: 201 },
    others: { other: 'denied', counsellor: 'denied' },
  },
  {
    // The owner reports another child's published post; the others aim at the owner's that waits.
    route: `POST ${PEERS}/reports`,
    aim: 'a post',
    server: 'peers',
    call: (fx, actor) => ({
      path: `${PEERS}/reports`,
      json: { kind: 'post', id: actor === 'owner' ? fx.peers.foreignPost : fx.peers.pendingPost },
    }),
    owner: { status: 200 },
    others: { other: 'denied', counsellor: 'denied' },
  },
  {
    route: `POST ${PEERS}/reports`,
    aim: 'a reply',
    server: 'peers',
    call: (fx, actor) => ({
      path: `${PEERS}/reports`,
      json: { kind: 'reply', id: actor === 'owner' ? fx.peers.foreignReply : fx.peers.pendingReply },
    }),
    owner: { status: 200 },
    others: { other: 'denied', counsellor: 'denied' },
  },
];

const moderation = staffEntry('peers', 'counsellor');

const S = '/portal/staff/peers';

/** What Peers moderation answers a counsellor; the refusals come from its staff area. */
export const PEERS_MODERATION_ROUTES: ProtectedEntry[] = [
  moderation(
    `GET ${S}/queue`,
    () => ({ path: `${S}/queue` }),
    200,
    () => PEER_SECRET.pendingText,
  ),
  moderation(
    `GET ${S}/posts`,
    () => ({ path: `${S}/posts` }),
    200,
    () => PUBLISHED_SUBJECT,
  ),
  moderation(`POST ${S}/:kind/:id/approve`, async (fx) => ({
    path: `${S}/posts/${await fx.peers.freshPending()}/approve`,
    json: {},
  })),
  moderation(`POST ${S}/:kind/:id/reject`, async (fx) => ({
    path: `${S}/posts/${await fx.peers.freshPending()}/reject`,
    json: { reason: 'Skriv inga namn på andra.' },
  })),
  moderation(
    `POST ${S}/posts/:id/replies`,
    (fx) => ({
      path: `${S}/posts/${fx.peers.publishedPost}/replies`,
      json: { text: 'Hör av dig till oss.' },
    }),
    201,
  ),
];
