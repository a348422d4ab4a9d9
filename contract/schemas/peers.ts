import type { Static } from '@sinclair/typebox';
import {
  PEER_POST_SUBJECT_MAX_LENGTH,
  PEER_POST_TEXT_MAX_LENGTH,
  PEER_REJECT_REASON_MAX_LENGTH,
  PEER_REPLY_MAX_LENGTH,
} from '../limits.ts';
import { Body, Id, Params, StringEnum, Text } from './common.ts';

/** Peers: what each call reads. */

/** POST /api/peers/posts */
export const NewPeerPostBody = Body({
  subject: Text(PEER_POST_SUBJECT_MAX_LENGTH),
  text: Text(PEER_POST_TEXT_MAX_LENGTH),
});
export type NewPeerPostBody = Static<typeof NewPeerPostBody>;
/** POST /api/peers/posts/{id}/replies, and a counsellor's reply */
export const NewPeerReplyBody = Body({ text: Text(PEER_REPLY_MAX_LENGTH) });
export type NewPeerReplyBody = Static<typeof NewPeerReplyBody>;
/** POST /api/peers/reports */
export const PeerReportBody = Body({ kind: StringEnum(['post', 'reply'] as const), id: Id });
export type PeerReportBody = Static<typeof PeerReportBody>;
/** POST /staff/peers/{posts|replies}/{id}/reject */
export const PeerRejectBody = Body({ reason: Text(PEER_REJECT_REASON_MAX_LENGTH) });
export type PeerRejectBody = Static<typeof PeerRejectBody>;
export const PeerItemParams = Params({ kind: StringEnum(['posts', 'replies'] as const), id: Id });
