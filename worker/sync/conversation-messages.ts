import type {
  ActivityType,
  Conversation,
  ConversationMessageWire,
  CreateConversationMessage,
  MessageListCursor,
} from '../../contract/conversations.ts';
import { HUB_EVENTS } from '../../contract/hub.ts';
import type { ValueList } from '../../contract/meetings.ts';
import {
  MESSAGE_CREATED_THROTTLE_MS,
  MESSAGE_RECONCILE_MAX_WAIT_MS,
  MESSAGE_RECONCILE_QUIET_MS,
  TYPING_SIGNAL_MIN_INTERVAL_MS,
} from '../../contract/timings.ts';
import { isServerError } from '../outbox/backoff.ts';
import { isRateLimited, type OutboxRow } from '../base/db.ts';
import type { ConversationRow } from '../base/group-support.ts';
import { done, ok } from '../base/result.ts';
import { HttpError } from '../http/http-error.ts';
import { EVENT_THROTTLE_MS, keyedDebounce, keyedThrottle } from '../hub/throttle.ts';
import { applyMessage, localRows, messageOfEvent, reconcileMessages, serverRow } from './chat-rows.ts';
import { conversationsBase, idOf, type SyncContext } from './sync-context.ts';
import { everyVariant, type HubHandlers, type SyncModule } from './sync-module.ts';
import { OwnRatings } from './own-ratings.ts';
import { ReadOrder } from './read-order.ts';
import { CONVERSATION_LIST_TAKE } from '../../contract/limits.ts';

export const CHAT_MESSAGE_KIND = 'conversationmessage';

export type ConversationLoadedListener = (
  conversation: Conversation,
  previous: ConversationRow | undefined,
) => Promise<void> | void;

/**
 * The messages of every conversation the user sees (SPEC §3 Conversation, §7 Conversations): a
 * meeting's group chat, the child's one-to-one chat, a mail thread, a historic chat. One Dexie shape
 * (`conversations`, `chatMessages`) for all of them; sending goes through the outbox.
 */
export class ConversationMessages implements SyncModule {
  readonly commands = {
    /** Queues a chat message in the outbox (sent once, in order, when online); resolves with its clientId. */
    sendChatMessage: async (conversationId: number, content: string) =>
      ok(await this.send(conversationId, content)),
    /** A reply in a mail thread: shown at once with its send status, sent through the outbox. */
    replyToConversation: async (conversationId: number, content: string) =>
      ok(await this.send(conversationId, content)),
    /** 'Försök igen' on a message the server refused: it is sent again through the outbox. */
    retryChatMessage: async (clientId: string) => ok(await this.retry(clientId)),
    /** 'Ta bort' on a message that was not sent: it leaves the screen and the outbox. */
    removeChatMessage: async (clientId: string) => ok(await this.remove(clientId)),
    /** Typing activity, at most every 5 s per conversation. */
    sendTyping: (conversationId: number) => done(this.sendTyping(conversationId)),
  };

  readonly tables: SyncModule['tables'];
  readonly runsIn = everyVariant;
  readonly hears: HubHandlers;
  readonly outboxKinds = { [CHAT_MESSAGE_KIND]: { settled: (row: OutboxRow) => this.settled(row) } };

  /** The child's own stars, kept over any answer that left the server before they were saved. */
  readonly ownRatings = new OwnRatings();
  /** Which answer about a conversation is the newest (shared with the list and the chat's resume). */
  readonly readOrder = new ReadOrder();
  private readonly lastTyping = new Map<number, number>();
  /**
   * Per conversation, the newest message id of the last complete list written to Dexie: the catch-up
   * cursor. Not the newest id stored: a hub event's message is stored at once, and the messages the
   * outage hid came before it (docs/decisions.md "Catch-up by cursor").
   */
  private readonly complete = new Map<number, number>();
  private readonly loadedListeners: ConversationLoadedListener[] = [];
  private readonly refetchMessages: (key: string) => void;
  private readonly refetchConversation: (key: string) => void;
  private readonly reconcileLater: (key: string) => void;

  constructor(private readonly ctx: SyncContext) {
    const { clock, db } = ctx;
    this.tables = [db.conversations, db.chatMessages, db.typing];
    const quietly = (load: () => Promise<void>) => void load().catch(() => undefined);
    this.refetchMessages = keyedThrottle(
      clock,
      EVENT_THROTTLE_MS[HUB_EVENTS.messageCreated] ?? MESSAGE_CREATED_THROTTLE_MS,
      (key) => quietly(() => this.loadMessages(Number(key))),
    );
    this.refetchConversation = keyedThrottle(
      clock,
      EVENT_THROTTLE_MS[HUB_EVENTS.conversationUpdated] ?? 1000,
      (key) => quietly(() => this.loadConversation(Number(key))),
    );
    const by = (refetch: (key: string) => void) => (data: unknown) => {
      const id = idOf(data, 'conversationId', 'conversation', 'id');
      if (id !== null) refetch(String(id));
    };
    this.reconcileLater = keyedDebounce(
      clock,
      MESSAGE_RECONCILE_QUIET_MS,
      MESSAGE_RECONCILE_MAX_WAIT_MS,
      (key) => quietly(() => this.loadMessages(Number(key))),
    );
    // The event's message is shown at once, and the fetch that reconciles the conversation follows
    // once it is quiet, off the hot path. An event without one refetches (SPEC §7 throttle).
    this.hears = {
      [HUB_EVENTS.messageCreated]: async (data) => {
        const applied = await this.applyEventMessage(data);
        by(applied ? this.reconcileLater : this.refetchMessages)(data);
      },
      [HUB_EVENTS.conversationUpdated]: by(this.refetchConversation),
    };
  }

  /** The message an event carries, written at once into a conversation this device holds. */
  private async applyEventMessage(data: unknown): Promise<boolean> {
    const message = messageOfEvent(data);
    if (!message) return false;
    try {
      if (!(await this.ctx.db.conversations.get(message.conversation))) return false;
      await applyMessage(this.ctx.db, message);
      return true;
    } catch {
      // The fetch that follows brings it (or the session ended meanwhile).
      return false;
    }
  }

  /** Sign-out: the next user types without the previous one's pause. */
  reset(): void {
    this.lastTyping.clear();
    this.ownRatings.clear();
    this.readOrder.clear();
    this.complete.clear();
  }

  /** A throttled refetch of the messages, e.g. once a subscription holds. */
  refetchSoon(conversationId: number): void {
    this.refetchMessages(String(conversationId));
  }

  async loadConversation(conversationId: number): Promise<void> {
    const asked = this.ownRatings.mark();
    const order = this.readOrder.ask();
    const { value } = await this.ctx.http.get<ValueList<Conversation>>(
      `${conversationsBase(this.ctx)}/conversations`,
      { params: { take: CONVERSATION_LIST_TAKE, skip: 0, selection: 'mine', conversation: conversationId } },
    );
    const conversation = value[0];
    // The list answers nothing for a conversation the user may not see.
    if (!conversation) throw new HttpError(403, 'forbidden', 'GET', 'conversations');
    const previous = await this.ctx.db.conversations.get(conversationId);
    // A newer answer about it has been stored meanwhile: this one is out of date.
    if (this.readOrder.fresher([conversation], order).length === 0) return;
    // Kept at the last moment: a star set while this was under way stays.
    this.ownRatings.keep(conversation, asked);
    await this.ctx.db.conversations.put({ ...conversation, fetchedAt: this.ctx.clock.now() });
    for (const listener of this.loadedListeners) await listener(conversation, previous);
  }

  /**
   * Told of every conversation (re)loaded here, e.g. after a hub event (the child's chat ending), with
   * the row it replaced (undefined when it was not stored yet).
   */
  onConversationLoaded(listener: ConversationLoadedListener): void {
    this.loadedListeners.push(listener);
  }

  /**
   * Fetches a conversation's messages into Dexie: a meeting's group chat from the group endpoint,
   * a one-to-one chat or mail thread from the conversations feature (SPEC §7). Without the
   * conversation row in Dexie it is fetched first.
   */
  async loadMessages(conversationId: number): Promise<void> {
    const value = await this.fetchMessages(conversationId, {});
    await reconcileMessages(this.ctx.db, conversationId, value);
    // The whole list replaced what was stored: its newest message is where a catch-up goes on from.
    const newest = newestId(value);
    if (newest === undefined) this.complete.delete(conversationId);
    else this.complete.set(conversationId, newest);
  }

  /**
   * Back online: only what came after the last complete list (the `since` cursor), merged by id; the
   * whole list when this device holds none, or no longer holds its newest message. Deletions and
   * erasures of older messages come with the next whole list (opening it, the 45 s refetch).
   */
  async catchUpMessages(conversationId: number): Promise<void> {
    const since = this.complete.get(conversationId);
    if (since === undefined || !(await this.ctx.db.chatMessages.get(String(since)))) {
      await this.loadMessages(conversationId);
      return;
    }
    const value = await this.fetchMessages(conversationId, { since });
    await reconcileMessages(this.ctx.db, conversationId, value, { partial: true });
    // A whole list written meanwhile may have gone further; the cursor never goes back.
    const newest = Math.max(since, newestId(value) ?? since, this.complete.get(conversationId) ?? since);
    this.complete.set(conversationId, newest);
  }

  /** A meeting's group chat from the group endpoint, the others from the conversations feature. */
  private async fetchMessages(
    conversationId: number,
    cursor: MessageListCursor,
  ): Promise<ConversationMessageWire[]> {
    if (!(await this.ctx.db.conversations.get(conversationId))) await this.loadConversation(conversationId);
    const row = await this.ctx.db.conversations.get(conversationId);
    const group = row ? row.meetingId !== null : false;
    const { value } = group
      ? await this.ctx.http.get<ValueList<ConversationMessageWire>>('/groupconversationmessages', {
          params: { conversationId, ...cursor },
        })
      : await this.ctx.http.get<ValueList<ConversationMessageWire>>(
          `${conversationsBase(this.ctx)}/messages`,
          {
            params: {
              take: CONVERSATION_LIST_TAKE,
              conversation: conversationId,
              selection: 'mine',
              ...cursor,
            },
          },
        );
    return value;
  }

  /** Shows the message at once as a local row; the outbox sends it once, in order, when it can. */
  async send(conversationId: number, content: string): Promise<string> {
    const { db } = this.ctx;
    const profile = await db.profile.get('current');
    const loggedDate = new Date(this.ctx.clock.now()).toISOString();
    const body: CreateConversationMessage = { content, conversation: conversationId, loggedDate };
    // The local row is written before the outbox may answer, so the answer always finds it.
    const clientId = crypto.randomUUID();
    // Behind a message that waits for the network, this one waits too.
    const behindWaiting = (await localRows(db, conversationId)).filter(
      (r) => r.sendStatus === 'offline',
    ).length;
    await db.chatMessages.put({
      key: `local:${clientId}`,
      id: null,
      clientId,
      sendStatus: behindWaiting > 0 ? 'offline' : 'sending',
      conversation: conversationId,
      message: content,
      loggedDate,
      authorKind: 'contact',
      contactId: profile?.contactId ?? null,
      contactName: profile?.username ?? null,
      agentId: null,
      agentName: null,
      createdAfterClosedConversation: false,
    });
    await this.ctx.enqueue({
      kind: CHAT_MESSAGE_KIND,
      path: '/conversationmessage',
      body,
      orderKey: `conversation:${conversationId}`,
      clientId,
    });
    return clientId;
  }

  private async markWaitingForNetwork(conversationId: number): Promise<void> {
    const { db } = this.ctx;
    const sending = (await localRows(db, conversationId)).filter((r) => r.sendStatus === 'sending');
    await db.chatMessages.bulkPut(sending.map((r) => ({ ...r, sendStatus: 'offline' as const })));
  }

  async retry(clientId: string): Promise<boolean> {
    const retried = await this.ctx.retryWrite(clientId);
    if (retried) await this.ctx.db.chatMessages.update(`local:${clientId}`, { sendStatus: 'sending' });
    return retried;
  }

  async remove(clientId: string): Promise<boolean> {
    const removed = await this.ctx.discardWrite(clientId);
    if (removed) await this.ctx.db.chatMessages.delete(`local:${clientId}`);
    return removed;
  }

  async sendTyping(conversationId: number): Promise<void> {
    const now = this.ctx.clock.now();
    if (now - (this.lastTyping.get(conversationId) ?? -Infinity) < TYPING_SIGNAL_MIN_INTERVAL_MS) return;
    this.lastTyping.set(conversationId, now);
    await this.activity(conversationId, 'Typing');
  }

  /** An activity (Connect, Ping, Typing, ...) of SPEC §7; best effort, a failure changes nothing. */
  async activity(conversation: number, type: ActivityType): Promise<void> {
    const body = { conversation, type, content: '' };
    await this.ctx.http.post(`${conversationsBase(this.ctx)}/activity`, body).catch(() => undefined);
  }

  /**
   * The outbox finished an attempt: the local chat row becomes the server's message, shows failure,
   * says that it waits for the network, or that the server asked to wait (too many messages) while
   * the outbox tries again later.
   */
  private async settled(row: OutboxRow): Promise<void> {
    const { db } = this.ctx;
    await db.transaction('rw', db.chatMessages, async () => {
      const local = await db.chatMessages.get(`local:${row.clientId}`);
      if (row.status === 'sent') {
        const message = row.response as ConversationMessageWire | undefined;
        if (!message || typeof message.id !== 'number') return;
        await db.chatMessages.delete(`local:${row.clientId}`);
        await db.chatMessages.put({ ...serverRow(message), clientId: row.clientId, sendStatus: 'sent' });
      } else if (row.status === 'failed' && local) {
        // No answer at all (offline, a cut or hung line) and a server that answers only with errors
        // (5xx) are told alike: the message waits, and goes when the line or the server lets it. A
        // refusal is for good until the user tries again.
        const sendStatus = row.final
          ? 'failed'
          : isRateLimited(row)
            ? 'waiting'
            : row.lastStatus === 0 || isServerError(row.lastStatus ?? 0)
              ? 'offline'
              : 'sending';
        const sendNotice = sendStatus === 'waiting' ? row.lastMessage : undefined;
        await db.chatMessages.update(local.key, { sendStatus, sendNotice });
        // The messages queued behind it in its conversation wait for the same network.
        if (sendStatus === 'offline') await this.markWaitingForNetwork(local.conversation);
      }
    });
  }
}

/** The highest message id of a list (the server sorts by date, and a late write may sit anywhere). */
function newestId(messages: ConversationMessageWire[]): number | undefined {
  return messages.length === 0 ? undefined : Math.max(...messages.map((m) => m.id));
}
