import { liveQuery } from 'dexie';
import type { Conversation } from '../../contract/conversations.ts';
import { HUB_EVENTS, entityKey } from '../../contract/hub.ts';
import type { ValueList } from '../../contract/meetings.ts';
import { isRateLimited, type OutboxRow } from '../client/db.ts';
import type { LoadResult } from '../client/group-support.ts';
import {
  MAIL_KIND,
  type ConversationSelection,
  type MailDeviceInfo,
  type SendMailResult,
} from '../client/mail-and-history.ts';
import { keyedThrottle } from '../hub/throttle.ts';
import { conversationProperties } from './conversation-properties.ts';
import type { GroupChatSync } from './group-chat.ts';
import { conversationsBase, idOf, type GroupDeps } from './group-deps.ts';
import { asLoadResult } from './load-result.ts';

/** The group chat sync's message loading and sending, which mail threads and history share. */
export type MessageSource = Pick<GroupChatSync, 'loadConversation' | 'loadMessages' | 'sendChatMessage'>;

/** How long `sendMail` waits for the outbox before it answers 'queued' (the write goes on). */
export const SEND_MAIL_WAIT_MS = 10_000;
/** The mail list is refetched at most this often on hub events (a burst becomes one more fetch). */
const LIST_THROTTLE_MS = 1000;
const FAVOURITE_RATING = 5;
const NOT_FAVOURITE_RATING = 1;

/** Mail threads and chat history in Dexie (`conversations`, `chatMessages`). */
export class MailAndHistorySync {
  /** Opens per conversation (several tabs may show one thread); the last close unsubscribes. */
  private readonly open = new Map<number, number>();
  /** The load each opened conversation started, so a favourite click waits for it. */
  private readonly loading = new Map<number, Promise<LoadResult>>();
  /**
   * The child's own ratings, by conversation: a list answer that left the server before the rating
   * was saved there carries the old one and must not turn the star back. `settled` is the write
   * count when the save answered (null while it is under way).
   */
  private readonly ownRatings = new Map<number, { rating: number; settled: number | null }>();
  private writes = 0;
  private readonly refreshList: (key: string) => void;
  private readonly markReadSoon: (key: string) => void;

  constructor(readonly deps: GroupDeps) {
    const quietly = (load: () => Promise<unknown>) => void load().catch(() => undefined);
    this.refreshList = keyedThrottle(deps.clock, LIST_THROTTLE_MS, () =>
      quietly(() => this.loadConversations('mine')),
    );
    this.markReadSoon = keyedThrottle(deps.clock, LIST_THROTTLE_MS, (key) =>
      quietly(() => this.markRead(Number(key))),
    );
    // Group support has no mail: its notifications are about meetings.
    if (deps.config.features.supportGroup) return;
    // A counsellor answered mail (a notification), or a mail written offline reached the server.
    deps.on(HUB_EVENTS.notificationCreated, () => this.refreshList('list'));
    deps.on(HUB_EVENTS.chatCreated, () => this.refreshList('list'));
    // A message arrives in a thread the child is reading: it is read already.
    deps.on(HUB_EVENTS.messageCreated, (data) => {
      const id = idOf(data, 'conversationId', 'conversation');
      if (id !== null && this.open.has(id)) this.markReadSoon(String(id));
    });
  }

  async loadConversations(selection: ConversationSelection = 'mine'): Promise<LoadResult> {
    return asLoadResult(async () => {
      const asked = this.writes;
      const { value } = await this.deps.http.get<ValueList<Conversation>>(
        `${conversationsBase(this.deps)}/conversations`,
        { params: { take: 9999, skip: 0, selection } },
      );
      for (const conversation of value) {
        const own = this.ownRatings.get(conversation.id);
        if (own && (own.settled === null || own.settled > asked)) conversation.rating = own.rating;
      }
      const { db, clock } = this.deps;
      const fetchedAt = clock.now();
      await db.transaction('rw', db.conversations, db.chatMessages, async () => {
        if (selection === 'mine') {
          // Gone from the server (deleted, here or on another device): gone here too. Group chats
          // belong to meetings and are kept by the meetings sync.
          const listed = new Set(value.map((c) => c.id));
          const gone = (await db.conversations.filter((c) => c.meetingId === null).toArray())
            .map((c) => c.id)
            .filter((id) => !listed.has(id));
          await db.conversations.bulkDelete(gone);
          await db.chatMessages.where('conversation').anyOf(gone).delete();
        }
        await db.conversations.bulkPut(value.map((c) => ({ ...c, fetchedAt })));
      });
    });
  }

  async openConversation(conversationId: number, chat: MessageSource): Promise<LoadResult> {
    const count = this.open.get(conversationId) ?? 0;
    this.open.set(conversationId, count + 1);
    if (count === 0) void this.deps.subscribe(entityKey('Conversation', conversationId));
    const loading = asLoadResult(async () => {
      await chat.loadConversation(conversationId);
      await chat.loadMessages(conversationId);
    });
    this.loading.set(conversationId, loading);
    const result = await loading;
    if (this.loading.get(conversationId) === loading) this.loading.delete(conversationId);
    if (result === 'ok') await this.markRead(conversationId).catch(() => undefined);
    return result;
  }

  async closeConversation(conversationId: number): Promise<void> {
    const count = this.open.get(conversationId) ?? 0;
    if (count > 1) {
      this.open.set(conversationId, count - 1);
      return;
    }
    if (count === 0) return;
    this.open.delete(conversationId);
    await this.deps.unsubscribe(entityKey('Conversation', conversationId));
  }

  /**
   * Through the outbox, so a mail written offline is kept and sent once (its client id is the
   * Idempotency-Key). Waits a little for the answer so the page can open the new thread.
   */
  async sendMail(
    subject: string,
    text: string,
    device: MailDeviceInfo,
    chat: MessageSource,
  ): Promise<SendMailResult> {
    const { db, clock, config } = this.deps;
    const profile = await db.profile.get('current');
    const properties = conversationProperties(profile, config.propertyIds, device, new Date(clock.now()));
    const clientId = crypto.randomUUID();
    await this.deps.enqueue({
      kind: MAIL_KIND,
      path: '/mail',
      body: { subject, text, properties },
      orderKey: `mail:${clientId}`,
      clientId,
    });
    const row = await this.settled(clientId);
    if (row?.status === 'failed' && row.final) return { status: 'failed' };
    if (row && isRateLimited(row)) return { status: 'waiting', clientId, message: row.lastMessage ?? null };
    const conversation = row?.status === 'sent' ? (row.response as Conversation | undefined) : undefined;
    if (!conversation || typeof conversation.id !== 'number') return { status: 'queued', clientId };
    await db.conversations.put({ ...conversation, fetchedAt: clock.now() });
    await chat.loadMessages(conversation.id).catch(() => undefined);
    return { status: 'sent', conversationId: conversation.id };
  }

  async setFavourite(conversationId: number, favourite: boolean): Promise<boolean> {
    const { db } = this.deps;
    // A load that started before the click would write the old rating over the new one.
    await this.loading.get(conversationId);
    const before = await db.conversations.get(conversationId);
    const rating = favourite ? FAVOURITE_RATING : NOT_FAVOURITE_RATING;
    // The star turns at once; a refusal turns it back.
    if (before) await db.conversations.update(conversationId, { rating });
    const own = { rating, settled: null as number | null };
    this.ownRatings.set(conversationId, own);
    try {
      await this.deps.http.put(`${conversationsBase(this.deps)}/rate`, {
        conversation: conversationId,
        rating,
      });
      return true;
    } catch {
      own.rating = before?.rating ?? own.rating;
      if (before) await db.conversations.update(conversationId, { rating: before.rating });
      return false;
    } finally {
      own.settled = ++this.writes;
    }
  }

  async deleteConversation(conversationId: number): Promise<boolean> {
    try {
      await this.deps.http.put(`${conversationsBase(this.deps)}/delete`, { conversation: conversationId });
    } catch {
      return false;
    }
    const { db } = this.deps;
    await db.transaction('rw', db.conversations, db.chatMessages, async () => {
      await db.chatMessages.where('conversation').equals(conversationId).delete();
      await db.conversations.delete(conversationId);
    });
    if (this.open.delete(conversationId)) {
      await this.deps.unsubscribe(entityKey('Conversation', conversationId));
    }
    return true;
  }

  /** Sign-out: nothing of the previous user's open threads is followed. */
  reset(): void {
    this.open.clear();
  }

  /** SPEC §3 hasUnreadMessages ends when the child has read the thread: a Read activity. */
  private async markRead(conversationId: number): Promise<void> {
    await this.deps.http.post(`${conversationsBase(this.deps)}/activity`, {
      conversation: conversationId,
      type: 'Read',
      content: '',
    });
    const { value } = await this.deps.http.get<ValueList<Conversation>>(
      `${conversationsBase(this.deps)}/conversations`,
      { params: { take: 9999, skip: 0, selection: 'mine', conversation: conversationId } },
    );
    const fresh = value[0];
    // Deleted meanwhile: do not bring the row back.
    if (fresh && (await this.deps.db.conversations.get(conversationId))) {
      await this.deps.db.conversations.put({ ...fresh, fetchedAt: this.deps.clock.now() });
    }
  }

  /** The outbox row once it was sent or failed, or as it is after SEND_MAIL_WAIT_MS. */
  private settled(clientId: string): Promise<OutboxRow | undefined> {
    const { db, clock } = this.deps;
    return new Promise((resolve) => {
      let latest: OutboxRow | undefined;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clock.clearTimeout(timer);
        // Unsubscribing inside `next` is not allowed before subscribe() returned.
        queueMicrotask(() => subscription.unsubscribe());
        resolve(latest);
      };
      const timer = clock.setTimeout(finish, SEND_MAIL_WAIT_MS);
      const subscription = liveQuery(() => db.outbox.get(clientId)).subscribe({
        next: (row) => {
          latest = row;
          if (row?.status === 'sent' || row?.status === 'failed') finish();
        },
        error: () => finish(),
      });
    });
  }
}
