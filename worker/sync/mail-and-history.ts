import type { Conversation } from '../../contract/conversations.ts';
import { HUB_EVENTS, entityKey } from '../../contract/hub.ts';
import type { ValueList } from '../../contract/meetings.ts';
import { done, failure, ok, type Result } from '../base/result.ts';
import type { LoadResult } from '../base/group-support.ts';
import {
  MAIL_KIND,
  type ConversationSelection,
  type MailDeviceInfo,
  type SendMailResult,
} from '../base/mail-and-history.ts';
import { keyedThrottle } from '../hub/throttle.ts';
import { RefCounts } from '../base/ref-counts.ts';
import { propertiesForNewConversation } from './conversation-properties.ts';
import type { ConversationMessages } from './conversation-messages.ts';
import { conversationsBase, idOf, type SyncContext } from './sync-context.ts';
import { asLoadResult } from './load-result.ts';
import { writeAndWait } from './write-and-wait.ts';
import { everyVariant, type HubHandlers, type SyncModule } from './sync-module.ts';
import { CONVERSATION_LIST_TAKE, RATING } from '../../contract/limits.ts';

/** The mail list is refetched at most this often on hub events (a burst becomes one more fetch). */
const LIST_THROTTLE_MS = 1000;

/**
 * Mail conversations and the chat history (SPEC §2 Historic chat window, §3 Conversation, §7
 * Conversations): lists by selection, a thread's messages, favourite (rate) and delete, in Dexie
 * (`conversations`, `chatMessages`, which ConversationMessages owns). The UI derives lists, unread
 * markers and stars.
 */
export class MailAndHistorySync implements SyncModule {
  readonly commands = {
    /**
     * GET the child's conversations (SPEC §7, take 9999) into Dexie. 'mine' replaces every one-to-one
     * row (mail threads, chats) with the server's list; the others only add and update.
     */
    loadConversations: (selection: ConversationSelection = 'mine') => this.loadConversations(selection),
    /**
     * Opens a mail thread or a historic chat: fetches the conversation and its messages, marks it
     * read and, while open, follows it live. Call `closeConversation` when it is no longer shown.
     */
    openConversation: (conversationId: number) => this.openConversation(conversationId),
    closeConversation: (conversationId: number) => done(this.closeConversation(conversationId)),
    /** POST {api}/mail through the outbox (sent once, also after being written offline). */
    sendMail: (subject: string, text: string, device: MailDeviceInfo) => this.sendMail(subject, text, device),
    /** SPEC §9: favourite is rating 5, not favourite 1. */
    setFavourite: (conversationId: number, favourite: boolean) =>
      this.setFavourite(conversationId, favourite),
    /** PUT delete: the conversation leaves the account and its messages are cleared everywhere. */
    deleteConversation: (conversationId: number) => this.deleteConversation(conversationId),
  };

  readonly tables = [];
  /** In every variant: group support's my pages list its historic chats too. */
  readonly runsIn = everyVariant;
  readonly hears: HubHandlers;
  /** Opens per conversation (several tabs may show one thread); the last close unsubscribes. */
  private readonly opens = new RefCounts<number>();
  /** The load each opened conversation started, so a favourite click waits for it. */
  private readonly loading = new Map<number, Promise<LoadResult>>();
  private readonly refreshList: (key: string) => void;
  private readonly markReadSoon: (key: string) => void;

  constructor(
    private readonly ctx: SyncContext,
    private readonly messages: ConversationMessages,
  ) {
    const quietly = (load: () => Promise<unknown>) => void load().catch(() => undefined);
    this.refreshList = keyedThrottle(ctx.clock, LIST_THROTTLE_MS, () =>
      quietly(() => this.loadConversations('mine')),
    );
    this.markReadSoon = keyedThrottle(ctx.clock, LIST_THROTTLE_MS, (key) =>
      quietly(() => this.markRead(Number(key))),
    );
    // Group support has no mail: its notifications are about meetings.
    this.hears = ctx.config.features.supportGroup
      ? {}
      : {
          // A counsellor answered mail (a notification), or a mail written offline reached the server.
          [HUB_EVENTS.notificationCreated]: () => this.refreshList('list'),
          [HUB_EVENTS.chatCreated]: () => this.refreshList('list'),
          // A message arrives in a thread the child is reading: it is read already.
          [HUB_EVENTS.messageCreated]: (data) => {
            const id = idOf(data, 'conversationId', 'conversation');
            if (id !== null && this.opens.has(id)) this.markReadSoon(String(id));
          },
        };
  }

  async loadConversations(selection: ConversationSelection = 'mine'): Promise<LoadResult> {
    return asLoadResult(async () => {
      const asked = this.messages.ownRatings.mark();
      const order = this.messages.readOrder.ask();
      const { value } = await this.ctx.http.get<ValueList<Conversation>>(
        `${conversationsBase(this.ctx)}/conversations`,
        { params: { take: CONVERSATION_LIST_TAKE, skip: 0, selection } },
      );
      const { db, clock } = this.ctx;
      const fetchedAt = clock.now();
      await db.transaction('rw', db.conversations, db.chatMessages, async () => {
        if (selection === 'mine') {
          // Gone from the server (deleted, here or on another device): gone here too. Group chats
          // belong to meetings and are kept by the meetings sync.
          const listed = new Set(value.map((c) => c.id));
          const gone = (await db.conversations.filter((c) => c.meetingId === null).toArray())
            .map((c) => c.id)
            .filter((id) => !listed.has(id) && !this.messages.readOrder.newer(id, order));
          await db.conversations.bulkDelete(gone);
          await db.chatMessages.where('conversation').anyOf(gone).delete();
        }
        // Kept at the last moment: a star set while this was under way stays.
        // Rows a newer answer has stored meanwhile stay as that answer left them.
        const { ownRatings, readOrder } = this.messages;
        const fresh = readOrder.fresher(value, order);
        await db.conversations.bulkPut(fresh.map((c) => ({ ...ownRatings.keep(c, asked), fetchedAt })));
      });
    });
  }

  async openConversation(conversationId: number): Promise<LoadResult> {
    if (this.opens.add(conversationId)) void this.ctx.subscribe(entityKey('Conversation', conversationId));
    const loading = asLoadResult(async () => {
      await this.messages.loadConversation(conversationId);
      await this.messages.loadMessages(conversationId);
    });
    this.loading.set(conversationId, loading);
    const result = await loading;
    if (this.loading.get(conversationId) === loading) this.loading.delete(conversationId);
    if (result.ok) await this.markRead(conversationId).catch(() => undefined);
    return result;
  }

  /** Back online: the messages of every open thread or historic chat. */
  async catchUp(): Promise<void> {
    await Promise.all(this.opens.keys().map((id) => this.messages.catchUpMessages(id)));
  }

  async closeConversation(conversationId: number): Promise<void> {
    if (!this.opens.remove(conversationId)) return;
    await this.ctx.unsubscribe(entityKey('Conversation', conversationId));
  }

  /**
   * Through the outbox, so a mail written offline is kept and sent once (its client id is the
   * Idempotency-Key). Waits a little for the answer so the page can open the new thread.
   */
  async sendMail(subject: string, text: string, device: MailDeviceInfo): Promise<SendMailResult> {
    const { db, clock, config } = this.ctx;
    const profile = await db.profile.get('current');
    const properties = propertiesForNewConversation(profile, config, device, new Date(clock.now()));
    return writeAndWait(
      this.ctx,
      (clientId) => ({
        kind: MAIL_KIND,
        path: '/mail',
        body: { subject, text, ...properties },
        orderKey: `mail:${clientId}`,
      }),
      async (row) => {
        const conversation = row.response as Conversation | undefined;
        if (!conversation || typeof conversation.id !== 'number') return null;
        // Newer than any list asked before it: such a list's silence about it deletes nothing.
        this.messages.readOrder.fresher([conversation], this.messages.readOrder.ask());
        await db.conversations.put({ ...conversation, fetchedAt: clock.now() });
        await this.messages.loadMessages(conversation.id).catch(() => undefined);
        return { conversationId: conversation.id };
      },
    );
  }

  async setFavourite(conversationId: number, favourite: boolean): Promise<Result<void, 'failed'>> {
    const { db } = this.ctx;
    // A load that started before the click would write the old rating over the new one.
    await this.loading.get(conversationId);
    const rating = favourite ? RATING.favourite : RATING.notFavourite;
    // Before any await: an answer stored from here on (the opening's read mark, say) keeps it.
    const own = this.messages.ownRatings.begin(conversationId, rating);
    const before = await db.conversations.get(conversationId);
    // The star turns at once; a refusal turns it back.
    if (before) await db.conversations.update(conversationId, { rating });
    try {
      await this.ctx.http.put(`${conversationsBase(this.ctx)}/rate`, {
        conversation: conversationId,
        rating,
      });
      return ok(undefined);
    } catch {
      if (before) {
        own.revert(before.rating ?? rating);
        await db.conversations.update(conversationId, { rating: before.rating });
      }
      return failure('failed');
    } finally {
      own.settle();
    }
  }

  async deleteConversation(conversationId: number): Promise<Result<void, 'failed'>> {
    try {
      await this.ctx.http.put(`${conversationsBase(this.ctx)}/delete`, { conversation: conversationId });
    } catch {
      return failure('failed');
    }
    const { db } = this.ctx;
    await db.transaction('rw', db.conversations, db.chatMessages, async () => {
      await db.chatMessages.where('conversation').equals(conversationId).delete();
      await db.conversations.delete(conversationId);
    });
    if (this.opens.drop(conversationId) > 0) {
      await this.ctx.unsubscribe(entityKey('Conversation', conversationId));
    }
    return ok(undefined);
  }

  /** Sign-out: nothing of the previous user's open threads is followed. */
  reset(): void {
    this.opens.clear();
  }

  /** SPEC §3 hasUnreadMessages ends when the child has read the thread: a Read activity. */
  private async markRead(conversationId: number): Promise<void> {
    await this.ctx.http.post(`${conversationsBase(this.ctx)}/activity`, {
      conversation: conversationId,
      type: 'Read',
      content: '',
    });
    // A star clicked while this is under way must stay: the answer may carry the rating from before.
    const asked = this.messages.ownRatings.mark();
    const order = this.messages.readOrder.ask();
    const { value } = await this.ctx.http.get<ValueList<Conversation>>(
      `${conversationsBase(this.ctx)}/conversations`,
      { params: { take: CONVERSATION_LIST_TAKE, skip: 0, selection: 'mine', conversation: conversationId } },
    );
    const fresh = value[0];
    // Deleted meanwhile: do not bring the row back; a newer answer stored meanwhile stays.
    if (
      fresh &&
      (await this.ctx.db.conversations.get(conversationId)) &&
      this.messages.readOrder.fresher([fresh], order).length > 0
    ) {
      const kept = this.messages.ownRatings.keep(fresh, asked);
      await this.ctx.db.conversations.put({ ...kept, fetchedAt: this.ctx.clock.now() });
    }
  }
}
