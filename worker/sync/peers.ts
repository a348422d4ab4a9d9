import { entityKey } from '../../contract/hub.ts';
import {
  PEER_BOARD_ID,
  PEER_EVENTS,
  type PeerItemKind,
  type PeerPostDetail,
  type PeerPostWire,
  type PeerReplyWire,
} from '../../contract/peers.ts';
import type { ValueList } from '../../contract/meetings.ts';
import type { OutboxRow } from '../base/db.ts';
import { failure, ok, type LoadResult, type Result } from '../base/result.ts';
import { PEER_POST_KIND, PEER_REPLY_KIND, type PeerWriteResult } from '../base/peers.ts';
import { keyedThrottle } from '../hub/throttle.ts';
import { asLoadResult, isGone, writeErrorOf } from './load-result.ts';
import { idOf, type SyncContext } from './sync-context.ts';
import { writeAndWait } from './write-and-wait.ts';
import type { HubHandlers, Stop, SyncModule } from './sync-module.ts';
import type { VariantFeatures } from '../../contract/variant.ts';

/** Hub events are turned into refetches at most this often per list or post. */
const REFETCH_THROTTLE_MS = 500;
const BASE = '/api/peers';
const BOARD_KEY = entityKey('PeerBoard', PEER_BOARD_ID);

/**
 * Peers: the board, the user's own posts and the posts they open, in Dexie for offline
 * reading; new posts and replies go through the outbox (sent once, also when written offline). Hub
 * events move an item from pending to published in every tab, and bring newly approved posts in.
 */
export class PeersSync implements SyncModule {
  readonly commands = {
    /** GET the board (published posts, newest first) into Dexie. */
    loadPeerBoard: () => this.loadBoard(),
    /** GET the user's own posts in every state into Dexie ('Mina inlägg'). */
    loadMyPeerPosts: () => this.loadMine(),
    /** GET one post with its replies (published ones and the user's own) into Dexie. */
    loadPeerPost: (postId: number) => this.loadPost(postId),
    /** POST a new post through the outbox; it waits for a counsellor before others see it. */
    writePeerPost: (subject: string, text: string) =>
      this.write(PEER_POST_KIND, `${BASE}/posts`, { subject, text }, 'peer-posts'),
    /** POST a reply to a published post through the outbox. */
    writePeerReply: (postId: number, text: string) =>
      this.write(PEER_REPLY_KIND, `${BASE}/posts/${postId}/replies`, { text }, `peer-post:${postId}`),
    /** 'Anmäl': the item goes back to moderation and leaves the board at once. */
    reportPeerItem: (kind: PeerItemKind, id: number, postId: number) => this.report(kind, id, postId),
  };

  readonly tables;
  readonly hears: HubHandlers;
  readonly outboxKinds = {
    [PEER_POST_KIND]: { settled: (row: OutboxRow) => this.settled(row) },
    [PEER_REPLY_KIND]: { settled: (row: OutboxRow) => this.settled(row) },
  };
  /** Posts opened in this worker's session: their replies are refetched when they change. */
  private readonly opened = new Set<number>();
  private readonly refetch: (key: string) => void;

  constructor(private readonly ctx: SyncContext) {
    this.tables = [ctx.db.peerPosts, ctx.db.peerReplies] as const;
    const quietly = (load: () => Promise<unknown>) => void load().catch(() => undefined);
    this.refetch = keyedThrottle(ctx.clock, REFETCH_THROTTLE_MS, (key) => {
      if (key === 'board') quietly(() => this.loadBoard());
      else if (key === 'mine') quietly(() => this.loadMine());
      else quietly(() => this.loadPost(Number(key)));
    });
    this.hears = {
      [PEER_EVENTS.boardChanged]: (data) => this.changed(data, false),
      [PEER_EVENTS.ownItemChanged]: (data) => this.changed(data, true),
    };
  }

  runsIn(features: VariantFeatures): boolean {
    return features.peers;
  }

  async signedIn(): Promise<Stop | void> {
    void this.ctx.subscribe(BOARD_KEY);
    await Promise.all([this.loadBoard(), this.loadMine()]);
    // The board's live updates are the user's: a next user on this phone asks for their own.
    return () => void this.ctx.unsubscribe(BOARD_KEY);
  }

  async catchUp(): Promise<void> {
    await Promise.all([
      this.loadBoard(),
      this.loadMine(),
      ...[...this.opened].map((id) => this.loadPost(id)),
    ]);
  }

  reset(): void {
    this.opened.clear();
  }

  private changed(data: unknown, own: boolean): void {
    this.refetch('board');
    if (own) this.refetch('mine');
    const postId = idOf(data, 'postId');
    if (postId !== null && this.opened.has(postId)) this.refetch(String(postId));
  }

  async loadBoard(): Promise<LoadResult> {
    return asLoadResult(async () => {
      const { value } = await this.ctx.http.get<ValueList<PeerPostWire>>(`${BASE}/posts`);
      const { db, clock } = this.ctx;
      const fetchedAt = clock.now();
      await db.transaction('rw', db.peerPosts, async () => {
        // Gone from the board (reported, say): gone here too, unless it is the user's own.
        const listed = new Set(value.map((p) => p.id));
        const gone = (await db.peerPosts.filter((p) => !p.own && !listed.has(p.id)).toArray()).map(
          (p) => p.id,
        );
        await db.peerPosts.bulkDelete(gone);
        await db.peerPosts.bulkPut(value.map((p) => ({ ...p, fetchedAt })));
      });
    });
  }

  async loadMine(): Promise<LoadResult> {
    return asLoadResult(async () => {
      const { value } = await this.ctx.http.get<ValueList<PeerPostWire>>(`${BASE}/my-posts`);
      const { db, clock } = this.ctx;
      const fetchedAt = clock.now();
      await db.transaction('rw', db.peerPosts, async () => {
        const listed = new Set(value.map((p) => p.id));
        const gone = (await db.peerPosts.filter((p) => p.own && !listed.has(p.id)).toArray()).map(
          (p) => p.id,
        );
        await db.peerPosts.bulkDelete(gone);
        await db.peerPosts.bulkPut(value.map((p) => ({ ...p, fetchedAt })));
      });
    });
  }

  async loadPost(postId: number): Promise<LoadResult> {
    this.opened.add(postId);
    const { db, clock } = this.ctx;
    const result = await asLoadResult(async () => {
      const detail = await this.ctx.http.get<PeerPostDetail>(`${BASE}/posts/${postId}`);
      const fetchedAt = clock.now();
      await db.transaction('rw', db.peerPosts, db.peerReplies, async () => {
        await db.peerPosts.put({ ...detail.post, fetchedAt });
        await db.peerReplies.where('postId').equals(postId).delete();
        await db.peerReplies.bulkPut(detail.replies.map((r) => ({ ...r, fetchedAt })));
      });
    });
    if (isGone(result)) {
      await db.transaction('rw', db.peerPosts, db.peerReplies, async () => {
        await db.peerReplies.where('postId').equals(postId).delete();
        await db.peerPosts.delete(postId);
      });
    }
    return result;
  }

  private write(kind: string, path: string, body: unknown, orderKey: string): Promise<PeerWriteResult> {
    return writeAndWait(
      this.ctx,
      () => ({ kind, path, body, orderKey }),
      async (row) => {
        const sent = row.response as { id?: unknown } | undefined;
        if (!sent || typeof sent.id !== 'number') return null;
        await this.store(row);
        return { id: sent.id };
      },
    );
  }

  /** A post or reply reached the server (now, or later from the outbox): it shows as pending. */
  private async settled(row: OutboxRow): Promise<void> {
    if (row.status === 'sent') await this.store(row);
  }

  private async store(row: OutboxRow): Promise<void> {
    const { db, clock } = this.ctx;
    const fetchedAt = clock.now();
    if (row.kind === PEER_POST_KIND) {
      const post = row.response as PeerPostWire | undefined;
      if (post && typeof post.id === 'number') await db.peerPosts.put({ ...post, fetchedAt });
    } else {
      const reply = row.response as PeerReplyWire | undefined;
      if (reply && typeof reply.id === 'number') await db.peerReplies.put({ ...reply, fetchedAt });
    }
  }

  private async report(
    kind: PeerItemKind,
    id: number,
    postId: number,
  ): Promise<Result<void, 'offline' | 'failed'>> {
    try {
      await this.ctx.http.post(`${BASE}/reports`, { kind, id });
    } catch (error) {
      return failure(writeErrorOf(error));
    }
    // It leaves the board here at once; the refetch confirms.
    const { db } = this.ctx;
    if (kind === 'post') await db.peerPosts.update(id, { state: 'pending' });
    else await db.peerReplies.update(id, { state: 'pending' });
    await Promise.all([this.loadBoard(), this.loadPost(postId)]);
    return ok(undefined);
  }
}
