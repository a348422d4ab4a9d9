import { entityKey } from '../../contract/hub.ts';
import { accountsWithRole } from '../auth/accounts.ts';
import { PEER_BOARD_ID, PEER_EVENTS } from '../../contract/peers.ts';
import type { AppContext } from '../context.ts';

/** What an event names: a post, and the reply when it is about one. Never any text. */
export interface PeerItemRef {
  postId: number;
  replyId?: number;
}

const BOARD_KEY = entityKey('PeerBoard', PEER_BOARD_ID);

/**
 * The one way a Peers handler announces a change: the author's own tabs learn that their item moved
 * (`ownerAccountId`), readers of the board that something was published or left it (`board`), and
 * every counsellor that the moderation queue changed (`queue`).
 */
export async function peerItemChanged(
  ctx: AppContext,
  ref: PeerItemRef,
  audience: { ownerAccountId?: number; board?: boolean; queue?: boolean },
): Promise<void> {
  const data = { postId: ref.postId, ...(ref.replyId !== undefined ? { replyId: ref.replyId } : {}) };
  const sends: Array<Promise<void>> = [];
  if (audience.ownerAccountId !== undefined) {
    sends.push(
      ctx.hub.publishToAccount(audience.ownerAccountId, PEER_EVENTS.ownItemChanged, data, BOARD_KEY),
    );
  }
  if (audience.board) sends.push(ctx.hub.publishToEntity(BOARD_KEY, PEER_EVENTS.boardChanged, data));
  if (audience.queue) sends.push(tellCounsellors(ctx, data));
  await Promise.all(sends);
}

async function tellCounsellors(ctx: AppContext, data: PeerItemRef) {
  await Promise.all(
    (await accountsWithRole(ctx.db, 'counsellor')).map((id) =>
      ctx.hub.publishToAccount(id, PEER_EVENTS.moderationChanged, data, BOARD_KEY),
    ),
  );
}
