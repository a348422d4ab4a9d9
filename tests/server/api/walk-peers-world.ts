import { login } from '../../../harness/test-server.ts';
import {
  OWNER,
  assistantTokenOf,
  caller,
  deletedToken,
  expiredTokenOf,
  revokedToken,
  staffLogins,
  startServer,
  type World,
} from './walk-fixtures.ts';

/** What only the owner (and the counsellors who moderate) may read on the Peers board. */
export const PEER_SECRET = {
  pendingSubject: 'HEMLIGT-inläggsämne-P4',
  pendingText: 'HEMLIG-inläggstext-P4',
  pendingReply: 'HEMLIGT-svar-P4',
  rejectedSubject: 'HEMLIGT-nekat-ämne-P4',
  rejectReason: 'HEMLIGT-nejskäl-P4',
} as const;
/** The owner's published post: on the board, everyone's to read. */
export const PUBLISHED_SUBJECT = 'walk-publicerat-inlägg';
export const PEERS = '/portal/api/peers';

export interface PeersWorld extends World {
  /** The owner's post that waits for a counsellor. */
  pendingPost: number;
  /** The owner's published post, with the owner's reply to it that waits for a counsellor. */
  publishedPost: number;
  pendingReply: number;
  rejectedPost: number;
  /** A published post and a published reply of another child's, for the owner to report. */
  foreignPost: number;
  foreignReply: number;
  /** A new post of the owner's, waiting for a counsellor's decision. */
  freshPending(): Promise<number>;
}

/**
 * The Peers variant: the owner is a child with a post waiting for moderation, a rejected
 * one and a published one carrying the owner's own unapproved reply; `other` is another child.
 */
export async function startPeers(): Promise<PeersWorld> {
  const { server, routes, dispose } = await startServer('peers');
  const call = caller(server, 'Peers');
  const register = async (username: string, password: string) => {
    await call('/portal/api/accounts/registercontact', { body: { username, password } });
    return (await login(server.url, username, password)).access_token;
  };
  const owner = await register(OWNER.username, OWNER.password);
  const author = await register('walk-peers-author', 'walk-losenord-7');
  const tokens = {
    owner,
    other: await register('walk-other', 'walk-losenord-2'),
    participant: (await login(server.url, 'DEMOKOD-0003')).access_token,
    assistant: await assistantTokenOf(server, owner),
    ...(await staffLogins(server)),
  };
  const staff = { token: tokens.counsellor };
  const post = async (token: string, subject: string, text: string) =>
    Number((await call(`${PEERS}/posts`, { token, body: { subject, text } })).id);
  const reply = async (token: string, postId: number, text: string) =>
    Number((await call(`${PEERS}/posts/${postId}/replies`, { token, body: { text } })).id);
  const approve = (kind: 'posts' | 'replies', id: number) =>
    call(`/portal/staff/peers/${kind}/${id}/approve`, { ...staff, body: {} });

  const pendingPost = await post(owner, PEER_SECRET.pendingSubject, PEER_SECRET.pendingText);
  const publishedPost = await post(owner, PUBLISHED_SUBJECT, 'Någon som känner igen sig?');
  await approve('posts', publishedPost);
  const pendingReply = await reply(owner, publishedPost, PEER_SECRET.pendingReply);
  const rejectedPost = await post(owner, PEER_SECRET.rejectedSubject, 'Text');
  await call(`/portal/staff/peers/posts/${rejectedPost}/reject`, {
    ...staff,
    body: { reason: PEER_SECRET.rejectReason },
  });
  const foreignPost = await post(author, 'Ett annat inlägg', 'Text');
  await approve('posts', foreignPost);
  const foreignReply = await reply(author, publishedPost, 'Jag med.');
  await approve('replies', foreignReply);

  const ownerReads = [
    `${PEERS}/my-posts`,
    `${PEERS}/posts`,
    ...[pendingPost, publishedPost, rejectedPost].map((id) => `${PEERS}/posts/${id}`),
  ];
  return {
    name: 'peers',
    server,
    dispose,
    variant: 'Peers',
    routes,
    tokens,
    revoked: await revokedToken(server.url, OWNER.username, OWNER.password),
    deleted: await deletedToken(server.url, await register('walk-deleted', 'walk-losenord-6'), 'Peers'),
    expired: await expiredTokenOf(server, owner, ['child']),
    secrets: Object.values(PEER_SECRET),
    peerSecrets: [],
    pendingPost,
    publishedPost,
    pendingReply,
    rejectedPost,
    foreignPost,
    foreignReply,
    // The owner's own views show any decision, reply or report that slipped through. (Not the
    // moderation queue: another child's own new post rightly joins it.)
    snapshot: () => Promise.all(ownerReads.map((p) => call(p, { token: owner }))),
    freshPending: () => post(owner, 'Nytt inlägg', 'Väntar på en kurator'),
  };
}
