import { useLiveQuery } from 'dexie-react-hooks';
import { PEER_POST_KIND, PEER_REPLY_KIND, type PeerPostDraft } from '../../worker/client/peers.ts';
import type { LoadOutcome, LoadResult } from '../../worker/client/result.ts';
import { useDb } from '../data/index.ts';
import { useLoadWhenBack } from '../data/live-queries.ts';

/** Runs a load when shown (and when `key` changes) and when the line comes back: its outcome. */
export function useLoad(load: () => Promise<LoadResult>, key: unknown): LoadOutcome | null {
  return useLoadWhenBack(load, key);
}

/** The board: published posts, newest first (own ones included once published). */
export function usePeerBoard() {
  const db = useDb();
  return useLiveQuery(
    async () =>
      (await db.peerPosts.where('state').equals('published').toArray()).sort(
        (a, b) => (b.publishedDate ?? '').localeCompare(a.publishedDate ?? '') || b.id - a.id,
      ),
    [db],
  );
}

/** 'Mina inlägg': the user's own posts in every state, newest first. */
export function useMyPeerPosts() {
  const db = useDb();
  return useLiveQuery(
    async () =>
      (await db.peerPosts.filter((p) => p.own).toArray()).sort(
        (a, b) => b.createdDate.localeCompare(a.createdDate) || b.id - a.id,
      ),
    [db],
  );
}

export function usePeerPost(id: number) {
  const db = useDb();
  return useLiveQuery(async () => (await db.peerPosts.get(id)) ?? null, [db, id]);
}

export function usePeerReplies(postId: number) {
  const db = useDb();
  return useLiveQuery(
    async () =>
      (await db.peerReplies.where('postId').equals(postId).toArray()).sort(
        (a, b) => a.createdDate.localeCompare(b.createdDate) || a.id - b.id,
      ),
    [db, postId],
  );
}

/** Posts written but not yet on the server (offline, or waiting after a 429). */
export function useUnsentPeerPosts() {
  const db = useDb();
  return useLiveQuery(
    async () =>
      (await db.outbox.where('status').anyOf('queued', 'sending', 'failed').toArray())
        .filter((row) => row.kind === PEER_POST_KIND && !row.final)
        .map((row) => ({ clientId: row.clientId, ...(row.body as PeerPostDraft) })),
    [db],
  );
}

/** Replies to `postId` written but not yet on the server. */
export function useUnsentPeerReplies(postId: number) {
  const db = useDb();
  return useLiveQuery(
    async () =>
      (await db.outbox.where('status').anyOf('queued', 'sending', 'failed').toArray())
        .filter((row) => row.kind === PEER_REPLY_KIND && !row.final && row.orderKey === `peer-post:${postId}`)
        .map((row) => ({ clientId: row.clientId, text: (row.body as { text: string }).text })),
    [db, postId],
  );
}
