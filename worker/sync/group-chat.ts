import type { ConversationConnectionWire } from '../../contract/conversations.ts';
import { HUB_EVENTS, entityKey } from '../../contract/hub.ts';
import { isFinal } from '../../contract/conversation-state.ts';
import type { ValueList } from '../../contract/meetings.ts';
import { PING_MS, MESSAGES_REFETCH_MS, PRESENCE_REFRESH_MS } from '../../contract/timings.ts';
import type { LoadResult } from '../base/group-support.ts';
import { keyedThrottle } from '../hub/throttle.ts';
import { RefCounts } from '../base/ref-counts.ts';
import type { ConversationMessages } from './conversation-messages.ts';
import { asLoadResult, isGone } from './load-result.ts';
import { done } from '../base/result.ts';
import { conversationsBase, idOf, type SyncContext } from './sync-context.ts';
import { everyVariant, type HubHandlers, type SyncModule } from './sync-module.ts';

/** Presence events refetch the list at most this often per conversation. */
export const CONNECTIONS_THROTTLE_MS = 250;

/**
 * SPEC §2 chat window, §4 Connection state: a meeting's group chat while it is open, with Connect,
 * Ping and Disconnect, the presence list and who is typing. Its messages are ConversationMessages'.
 */
export class GroupChatSync implements SyncModule {
  readonly commands = {
    /**
     * Opens the group chat of a meeting: subscribes to the conversation (group retries), fetches the
     * conversation, messages and connections, posts Connect and then a Ping every 30 s until closed.
     * The presence list is refetched every PRESENCE_REFRESH_MS too: a Ping moves a participant's
     * lastPingedDate without any hub event, so the cached rows would otherwise age into 'Away'.
     * Call once per mounted chat window; opens are counted, the last close disconnects.
     */
    openGroupChat: (conversationId: number) => this.open(conversationId),
    closeGroupChat: (conversationId: number) => done(this.close(conversationId)),
  };

  readonly tables: SyncModule['tables'];

  /** Opens per conversation: several tabs may show one chat; the last close disconnects. */
  private readonly opens = new RefCounts<number>();
  /** The repeating timers of each open chat (the array is the chat's own until it closes). */
  private readonly timers = new Map<number, Array<() => void>>();
  private readonly refetchConnections: (key: string) => void;
  readonly runsIn = everyVariant;
  readonly hears: HubHandlers;

  constructor(
    private readonly ctx: SyncContext,
    private readonly messages: ConversationMessages,
  ) {
    this.tables = [ctx.db.connections];
    this.refetchConnections = keyedThrottle(
      ctx.clock,
      CONNECTIONS_THROTTLE_MS,
      (key) => void this.loadConnections(Number(key)).catch(() => undefined),
    );
    const byConversation = (data: unknown) => {
      const id = idOf(data, 'conversationId', 'conversation', 'id');
      if (id !== null) this.refetchConnections(String(id));
    };
    this.hears = {
      [HUB_EVENTS.contactConnected]: byConversation,
      [HUB_EVENTS.contactDisconnected]: byConversation,
      [HUB_EVENTS.contactIsTyping]: (data) => this.typing(data),
    };
  }

  /** Sign-out: no timers of the previous user's chats run on. */
  reset(): void {
    for (const timers of this.timers.values()) for (const stop of timers) stop();
    this.timers.clear();
    this.opens.clear();
  }

  /**
   * Back online: every open group chat's messages and participants, and a Ping, so the others see
   * this participant present again without waiting for the next 30 s ping.
   */
  async catchUp(): Promise<void> {
    await Promise.all(
      this.opens.keys().map(async (conversationId) => {
        if (!(await this.finished(conversationId))) await this.messages.activity(conversationId, 'Ping');
        await this.loadAll(conversationId, 'since');
      }),
    );
  }

  private async open(conversationId: number): Promise<LoadResult> {
    if (!this.opens.add(conversationId)) return asLoadResult(() => this.loadAll(conversationId));
    const timers: Array<() => void> = [];
    this.timers.set(conversationId, timers);
    // Not awaited (group retries may take minutes); once it holds, one refetch covers what was
    // written between our first fetch and the subscription.
    void this.ctx.subscribe(entityKey('Conversation', conversationId), 'group').then((ok) => {
      if (ok && this.opens.has(conversationId)) this.messages.refetchSoon(conversationId);
    });
    const result = await asLoadResult(() => this.loadAll(conversationId));
    // A finished chat's history is read only: no Connect, no Ping, no Disconnect, nothing to follow.
    if (isGone(result) || (await this.finished(conversationId))) {
      await this.stop(conversationId);
      return result;
    }
    await this.messages.activity(conversationId, 'Connect');
    // Our own connection is part of the presence list; do not rely on the hub event for it.
    await this.loadConnections(conversationId).catch(() => undefined);
    if (this.timers.get(conversationId) === timers) {
      this.every(timers, PING_MS, async () => {
        // A chat that ended while open is no longer pinged (presence of a finished chat means nothing).
        if (!(await this.finished(conversationId))) await this.messages.activity(conversationId, 'Ping');
      });
      this.every(timers, MESSAGES_REFETCH_MS, () => this.messages.loadMessages(conversationId));
      this.every(timers, PRESENCE_REFRESH_MS, () => this.loadConnections(conversationId));
    }
    return result;
  }

  private async finished(conversationId: number): Promise<boolean> {
    return isFinal(await this.ctx.db.conversations.get(conversationId));
  }

  private async close(conversationId: number): Promise<void> {
    if (!this.opens.remove(conversationId)) return;
    await this.stop(conversationId);
    await this.messages.activity(conversationId, 'Disconnect');
  }

  private async stop(conversationId: number): Promise<void> {
    for (const stop of this.timers.get(conversationId) ?? []) stop();
    this.timers.delete(conversationId);
    this.opens.drop(conversationId);
    await this.ctx.unsubscribe(entityKey('Conversation', conversationId));
  }

  /** A repeating timer that ends with the chat. */
  private every(timers: Array<() => void>, ms: number, run: () => Promise<unknown>): void {
    timers.push(this.ctx.repeat(ms, run));
  }

  /** `since`: the messages after the last complete list only (the catch-up cursor). */
  private async loadAll(conversationId: number, messages: 'whole' | 'since' = 'whole'): Promise<void> {
    const loadMessages = (id: number) =>
      messages === 'since' ? this.messages.catchUpMessages(id) : this.messages.loadMessages(id);
    // The conversation row first: it decides which endpoint lists the messages.
    await Promise.all([
      this.messages.loadConversation(conversationId).then(() => loadMessages(conversationId)),
      this.loadConnections(conversationId),
    ]);
  }

  private async loadConnections(conversationId: number): Promise<void> {
    const { value } = await this.ctx.http.get<ValueList<ConversationConnectionWire>>(
      `${conversationsBase(this.ctx)}/conversationConnections`,
      { params: { conversation: conversationId } },
    );
    const { db } = this.ctx;
    await db.transaction('rw', db.connections, async () => {
      await db.connections.where('conversation').equals(conversationId).delete();
      await db.connections.bulkPut(value.map((c) => ({ ...c, key: `${c.conversation}:${c.contact}` })));
    });
  }

  private async typing(data: unknown): Promise<void> {
    const conversation = idOf(data, 'conversationId', 'conversation');
    const contactId = idOf(data, 'contactId');
    if (conversation === null || contactId === null) return;
    const own = await this.ctx.db.profile.get('current');
    if (own?.contactId === contactId) return;
    const name = (data as { contactName?: unknown }).contactName;
    await this.ctx.db.typing.put({
      key: `${conversation}:${contactId}`,
      conversation,
      contactId,
      contactName: typeof name === 'string' ? name : '',
      at: this.ctx.clock.now(),
    });
  }
}
