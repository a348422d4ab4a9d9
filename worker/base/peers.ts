import type { PeerItemKind, PeerPostWire, PeerReplyWire } from '../../contract/peers.ts';
import type { Result, WriteAnswer } from './result.ts';

/**
 * Peers: the board of published posts, the user's own posts in every state, one post's
 * replies. The worker writes `peerPosts` and `peerReplies`; the UI derives the board (published,
 * newest first) and 'Mina inlägg' (own) from them.
 */
export interface PeerPostRow extends PeerPostWire {
  fetchedAt: number;
}
export interface PeerReplyRow extends PeerReplyWire {
  fetchedAt: number;
}

/** Outbox kinds of a new post and a reply; their rows are shown as 'not sent yet' while they wait. */
export const PEER_POST_KIND = 'peerPost';
export const PEER_REPLY_KIND = 'peerReply';

/** The body of a waiting post or reply, as the outbox keeps it. */
export interface PeerPostDraft {
  subject: string;
  text: string;
}
export interface PeerReplyDraft {
  text: string;
}

/** A new post's or reply's answer (WriteAnswer): once sent (pending moderation), its id. */
export type PeerWrite = WriteAnswer<{ id: number }>;
export type PeerWriteResult = Result<PeerWrite, 'failed'>;

export type { PeerItemKind };
