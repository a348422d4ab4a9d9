/**
 * Peers: posts by young people for young people, each post and reply moderated by a
 * counsellor before anyone else sees it. Authors appear by the name they chose to be seen by, never
 * their username (the app asks for one before the first post, and an author without one is shown
 * as NEUTRAL_AUTHOR_NAME); a counsellor's reply is marked as staff and carries no name.
 */

/** Shown for an author who has not chosen a name (and for names that were usernames before). */
export const NEUTRAL_AUTHOR_NAME = 'Anonym';

/** pending: waits for a counsellor (new, or reported); published: on the board; rejected: with a reason. */
export const PEER_ITEM_STATES = ['pending', 'published', 'rejected'] as const;
export type PeerItemState = (typeof PEER_ITEM_STATES)[number];
export type PeerItemKind = 'post' | 'reply';

export interface PeerPostWire {
  id: number;
  subject: string;
  text: string;
  /** The name the author chose to be seen by, or NEUTRAL_AUTHOR_NAME. */
  authorName: string;
  state: PeerItemState;
  /** Shown to the author only (null for everyone else and while not rejected). */
  rejectReason: string | null;
  createdDate: string;
  publishedDate: string | null;
  /** Published replies. */
  replyCount: number;
  /** The caller wrote it. */
  own: boolean;
}

export interface PeerReplyWire {
  id: number;
  postId: number;
  text: string;
  /** The author's username; null for a counsellor's reply. */
  authorName: string | null;
  byStaff: boolean;
  state: PeerItemState;
  rejectReason: string | null;
  createdDate: string;
  own: boolean;
}

/** GET /api/peers/posts/{id}: the post, its published replies and the caller's own others. */
export interface PeerPostDetail {
  post: PeerPostWire;
  replies: PeerReplyWire[];
}

/** One item of the counsellors' moderation queue. */
export interface PeerModerationItem {
  kind: PeerItemKind;
  id: number;
  postId: number;
  /** The post's subject (a reply's post's). */
  subject: string;
  text: string;
  authorName: string;
  createdDate: string;
  /** Someone reported it after it was published. */
  reported: boolean;
}

/** Hub events of Peers; each carries `{ postId, replyId? }`, never text. */
export const PEER_EVENTS = {
  /** To the author's account: one of their items moved (pending -> published | rejected). */
  ownItemChanged: 'PeerItem.Updated',
  /** To the board's subscribers: a post or reply was published, or left the board. */
  boardChanged: 'PeerBoard.Changed',
  /** To every counsellor's account: the moderation queue changed. */
  moderationChanged: 'PeerModeration.Changed',
} as const;

/** The board every signed-in Peers user may follow (contract/hub.ts entity keys). */
export const PEER_BOARD_ID = 1;
