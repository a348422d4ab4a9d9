import type { PeerItemState } from '../../contract/peers.ts';
import { PEER_TEXTS as T } from './texts.ts';
import * as s from './peers.styles.ts';

/** What the author sees of their own item that others do not: it waits, or why it was not approved. */
export function OwnItemState({ state, rejectReason }: { state: PeerItemState; rejectReason: string | null }) {
  if (state === 'published') return null;
  return (
    <>
      <span className={s.badge}>{T.state[state]}</span>
      <p className={s.note}>
        {state === 'rejected' && rejectReason ? T.rejectedNote(rejectReason) : T.pendingNote}
      </p>
    </>
  );
}
