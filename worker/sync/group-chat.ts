import type {
  ActivityType,
  Conversation,
  ConversationConnectionWire,
  ConversationMessageWire,
  CreateConversationMessage,
} from '../../contract/conversations.ts';
import { HUB_EVENTS, entityKey } from '../../contract/hub.ts';
import type { ValueList } from '../../contract/meetings.ts';
import type { LoadResult } from '../client/group-support.ts';
import { isRateLimited, type OutboxRow } from '../client/db.ts';
import { HttpError } from '../http/http-error.ts';
import { EVENT_THROTTLE_MS, keyedThrottle } from '../hub/throttle.ts';
import { conversationsBase, idOf, type GroupDeps } from './group-deps.ts';
import { asLoadResult } from './load-result.ts';
import { reconcileMessages, serverRow } from './chat-rows.ts';
import {
  PING_MS,
  MESSAGES_REFETCH_MS as MESSAGES_POLL_MS,
  TYPING_SIGNAL_MIN_INTERVAL_MS as TYPING_MIN_INTERVAL_MS,
  MESSAGE_CREATED_THROTTLE_MS,
} from '../../contract/timings.ts';
export { PING_MS, MESSAGES_POLL_MS, TYPING_MIN_INTERVAL_MS };

const CONNECTIONS_THROTTLE_MS = 250;
export const CHAT_MESSAGE_KIND = 'conversationmessage';

interface OpenChat {
  count: number;
  timers: unknown[];
}

/** SPEC §2 chat window, §4 Conversation and Connection state: the group chat of a meeting in Dexie. */
export class GroupChatSync {
  /** Opens per conversation: several tabs may show one chat; the last close disconnects. */
  private readonly open = new Map<number, OpenChat>();
  private readonly lastTyping = new Map<number, number>();
  private readonly loadedListeners: ((conversation: Conversation) => Promise<void> | void)[] = [];
  private readonly refetchMessages: (key: string) => void;
  private readonly refetchConversation: (key: string) => void;
  private readonly refetchConnections: (key: string) => void;

  constructor(private readonly deps: GroupDeps) {
    const { clock } = deps;
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
    this.refetchConnections = keyedThrottle(clock, CONNECTIONS_THROTTLE_MS, (key) =>
      quietly(() => this.loadConnections(Number(key))),
    );
    const by = (refetch: (key: string) => void) => (data: unknown) => {
      const id = idOf(data, 'conversationId', 'conversation', 'id');
      if (id !== null) refetch(String(id));
    };
    deps.on(HUB_EVENTS.messageCreated, by(this.refetchMessages));
    deps.on(HUB_EVENTS.conversationUpdated, by(this.refetchConversation));
    deps.on(HUB_EVENTS.contactConnected, by(this.refetchConnections));
    deps.on(HUB_EVENTS.contactDisconnected, by(this.refetchConnections));
    deps.on(HUB_EVENTS.contactIsTyping, (data) => this.typing(data));
  }

  async openGroupChat(conversationId: number): Promise<LoadResult> {
    const chat = this.open.get(conversationId);
    if (chat) {
      chat.count += 1;
      return asLoadResult(() => this.loadAll(conversationId));
    }
    this.open.set(conversationId, { count: 1, timers: [] });
    // Not awaited (group retries may take minutes); once it holds, one refetch covers what was
    // written between our first fetch and the subscription.
    void this.deps.subscribe(entityKey('Conversation', conversationId), 'group').then((ok) => {
      if (ok && this.open.has(conversationId)) this.refetchMessages(String(conversationId));
    });
    const result = await asLoadResult(() => this.loadAll(conversationId));
    if (result === 'forbidden' || result === 'not_found') {
      await this.stop(conversationId);
      return result;
    }
    await this.activity(conversationId, 'Connect');
    // Our own connection is part of the presence list; do not rely on the hub event for it.
    await this.loadConnections(conversationId).catch(() => undefined);
    const entry = this.open.get(conversationId);
    if (entry) {
      this.every(entry, PING_MS, () => this.activity(conversationId, 'Ping'));
      this.every(entry, MESSAGES_POLL_MS, () => this.loadMessages(conversationId));
    }
    return result;
  }

  async closeGroupChat(conversationId: number): Promise<void> {
    const chat = this.open.get(conversationId);
    if (!chat) return;
    chat.count -= 1;
    if (chat.count > 0) return;
    await this.stop(conversationId);
    await this.activity(conversationId, 'Disconnect');
  }

  /** Shows the message at once as a local row; the outbox sends it once, in order, when it can. */
  async sendChatMessage(conversationId: number, content: string): Promise<string> {
    const { db } = this.deps;
    const profile = await db.profile.get('current');
    const loggedDate = new Date(this.deps.clock.now()).toISOString();
    const body: CreateConversationMessage = { content, conversation: conversationId, loggedDate };
    // The local row is written before the outbox may answer, so the answer always finds it.
    const clientId = crypto.randomUUID();
    await db.chatMessages.put({
      key: `local:${clientId}`,
      id: null,
      clientId,
      sendStatus: 'sending',
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
    await this.deps.enqueue({
      kind: CHAT_MESSAGE_KIND,
      path: '/conversationmessage',
      body,
      orderKey: `conversation:${conversationId}`,
      clientId,
    });
    return clientId;
  }

  /**
   * The outbox finished an attempt: the local chat row becomes the server's message, shows failure,
   * or says that the server asked to wait (too many messages) while the outbox tries again later.
   */
  async outboxSettled(row: OutboxRow): Promise<void> {
    if (row.kind !== CHAT_MESSAGE_KIND) return;
    const { db } = this.deps;
    await db.transaction('rw', db.chatMessages, async () => {
      const local = await db.chatMessages.get(`local:${row.clientId}`);
      if (row.status === 'sent') {
        const message = row.response as ConversationMessageWire | undefined;
        if (!message || typeof message.id !== 'number') return;
        await db.chatMessages.delete(`local:${row.clientId}`);
        await db.chatMessages.put({ ...serverRow(message), clientId: row.clientId, sendStatus: 'sent' });
      } else if (row.status === 'failed' && local) {
        const sendStatus = row.final ? 'failed' : isRateLimited(row) ? 'waiting' : 'sending';
        const sendNotice = sendStatus === 'waiting' ? row.lastMessage : undefined;
        await db.chatMessages.update(local.key, { sendStatus, sendNotice });
      }
    });
  }

  async sendTyping(conversationId: number): Promise<void> {
    const now = this.deps.clock.now();
    if (now - (this.lastTyping.get(conversationId) ?? -Infinity) < TYPING_MIN_INTERVAL_MS) return;
    this.lastTyping.set(conversationId, now);
    await this.activity(conversationId, 'Typing');
  }

  /** Sign-out: no timers of the previous user's chats run on. */
  reset(): void {
    for (const chat of this.open.values()) for (const t of chat.timers) this.deps.clock.clearTimeout(t);
    this.open.clear();
    this.lastTyping.clear();
  }

  private async stop(conversationId: number): Promise<void> {
    const chat = this.open.get(conversationId);
    for (const t of chat?.timers ?? []) this.deps.clock.clearTimeout(t);
    this.open.delete(conversationId);
    await this.deps.unsubscribe(entityKey('Conversation', conversationId));
  }

  /** A repeating timer that ends with the chat (its handle list is replaced on every run). */
  private every(chat: OpenChat, ms: number, run: () => Promise<unknown>): void {
    const index = chat.timers.length;
    const tick = () => {
      if (!this.isOpen(chat)) return;
      void run().catch(() => undefined);
      chat.timers[index] = this.deps.clock.setTimeout(tick, ms);
    };
    chat.timers[index] = this.deps.clock.setTimeout(tick, ms);
  }

  private isOpen(chat: OpenChat): boolean {
    return [...this.open.values()].includes(chat);
  }

  private async loadAll(conversationId: number): Promise<void> {
    // The conversation row first: it decides which endpoint lists the messages.
    await Promise.all([
      this.loadConversation(conversationId).then(() => this.loadMessages(conversationId)),
      this.loadConnections(conversationId),
    ]);
  }

  async loadConversation(conversationId: number): Promise<void> {
    const { value } = await this.deps.http.get<ValueList<Conversation>>(
      `${conversationsBase(this.deps)}/conversations`,
      { params: { take: 9999, skip: 0, selection: 'mine', conversation: conversationId } },
    );
    const conversation = value[0];
    // The list answers nothing for a conversation the user may not see.
    if (!conversation) throw new HttpError(403, 'forbidden', 'GET', 'conversations');
    await this.deps.db.conversations.put({ ...conversation, fetchedAt: this.deps.clock.now() });
    for (const listener of this.loadedListeners) await listener(conversation);
  }

  /** Told of every conversation this sync (re)loads, e.g. after a hub event (the child's chat ending). */
  onConversationLoaded(listener: (conversation: Conversation) => Promise<void> | void): void {
    this.loadedListeners.push(listener);
  }

  /**
   * Fetches a conversation's messages into Dexie: a meeting's group chat from the group endpoint,
   * a one-to-one chat or mail thread from the conversations feature (SPEC §7). Mail and history use
   * it too. Without the conversation row in Dexie it is fetched first.
   */
  async loadMessages(conversationId: number): Promise<void> {
    if (!(await this.deps.db.conversations.get(conversationId))) await this.loadConversation(conversationId);
    const row = await this.deps.db.conversations.get(conversationId);
    const group = row ? row.meetingId !== null : false;
    const { value } = group
      ? await this.deps.http.get<ValueList<ConversationMessageWire>>('/groupconversationmessages', {
          params: { conversationId },
        })
      : await this.deps.http.get<ValueList<ConversationMessageWire>>(
          `${conversationsBase(this.deps)}/messages`,
          {
            params: { take: 9999, conversation: conversationId, selection: 'mine' },
          },
        );
    await reconcileMessages(this.deps.db, conversationId, value);
  }

  private async loadConnections(conversationId: number): Promise<void> {
    const { value } = await this.deps.http.get<ValueList<ConversationConnectionWire>>(
      `${conversationsBase(this.deps)}/conversationConnections`,
      { params: { conversation: conversationId } },
    );
    const { db } = this.deps;
    await db.transaction('rw', db.connections, async () => {
      await db.connections.where('conversation').equals(conversationId).delete();
      await db.connections.bulkPut(value.map((c) => ({ ...c, key: `${c.conversation}:${c.contact}` })));
    });
  }

  private async typing(data: unknown): Promise<void> {
    const conversation = idOf(data, 'conversationId', 'conversation');
    const contactId = idOf(data, 'contactId');
    if (conversation === null || contactId === null) return;
    const own = await this.deps.db.profile.get('current');
    if (own?.contactId === contactId) return;
    const name = (data as { contactName?: unknown }).contactName;
    await this.deps.db.typing.put({
      key: `${conversation}:${contactId}`,
      conversation,
      contactId,
      contactName: typeof name === 'string' ? name : '',
      at: this.deps.clock.now(),
    });
  }

  private async activity(conversation: number, type: ActivityType): Promise<void> {
    const body = { conversation, type, content: '' };
    await this.deps.http.post(`${conversationsBase(this.deps)}/activity`, body).catch(() => undefined);
  }
}
