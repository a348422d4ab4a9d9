import type { Conversation } from '../../contract/conversations.ts';
import { isFinal } from '../../contract/conversation-state.ts';
import { HUB_EVENTS, entityKey } from '../../contract/hub.ts';
import type { ValueList } from '../../contract/meetings.ts';
import type { LoadResult } from '../base/group-support.ts';
import { done, failure, ok, type Result } from '../base/result.ts';
import {
  calmTimesKey,
  type ChatAccountStatus,
  type ChatStateRow,
  type StartChatResult,
} from '../base/one-to-one-chat.ts';
import type { CalmTimes } from '../../contract/calm-times.ts';
import type { FeedbackAnswer } from '../../contract/chat-feedback.ts';
import { isHttpError, refusalOf } from '../http/http-error.ts';
import { delay } from '../clock.ts';
import { propertiesForNewConversation, type DeviceInfo } from './conversation-properties.ts';
import { conversationsBase, idOf, type SyncContext } from './sync-context.ts';
import type { ConversationMessages } from './conversation-messages.ts';
import type { HubHandlers, SyncModule } from './sync-module.ts';
import type { VariantFeatures } from '../../contract/variant.ts';
import type { SignOutReason } from '../base/session.ts';
import { asLoadResult } from './load-result.ts';
import {
  QUEUE_POSITION_MS,
  PING_MS,
  CHAT_STATUS_REFRESH_MS,
  MESSAGES_REFETCH_MS,
  YOUNG_CHAT_MS,
  LEAVE_QUEUE_DELAY_MS,
} from '../../contract/timings.ts';
import { DEFAULT_CHAT_SUBJECT } from '../../contract/conversations.ts';
import { CONVERSATION_STATE } from '../../contract/conversation-state.ts';
import { ACTIVE_CONVERSATIONS_TAKE } from '../../contract/limits.ts';

/** The outbox kind of 'Hur kändes chatten?': POSTed as it is, answered once per chat by the server. */
const FEEDBACK_KIND = 'chatfeedback';

/** SPEC §7: the fixed cancel reason. */
export const CANCEL_REASON = 'Konversationen togs bort av barnet.';
/** SPEC §4: what the conversation log says when the child logs out of a chat. */
export const LOGOUT_LOG = 'Användaren loggade ut';

/** SPEC §8: a 409 carries a status string, as the body itself or as its `status`. */
const statusOf = (body: unknown): unknown =>
  typeof body === 'string' ? body : (body as { status?: unknown } | null)?.status;

const EMPTY_STATE: ChatStateRow = {
  id: 'current',
  conversationId: null,
  preSubmitted: false,
  cancelledByUser: false,
  activeSince: null,
  wasLive: false,
  feedback: null,
};

/**
 * SPEC §2 Chat window and §4 Conversation for the child's one-to-one chat. Messages, typing and
 * sending are ConversationMessages' (one Dexie shape for every chat); this adds the queue: create,
 * queue position, ping, leave, end and the local flags of `chatState`.
 */
export class OneToOneChatSync implements SyncModule {
  readonly commands = {
    /** Reads the child's active chat (if any) into Dexie and resumes its timers. */
    resumeChat: () => this.resumeChat(),
    /** GET chatAccountStatus (SPEC §8: a 409 carries the status; other failures are 'Error'). */
    chatAccountStatus: () => this.chatAccountStatus(),
    /** Creates a chat (queue) with the conversation properties; `text` is an optional first message. */
    startChat: (text: string | null, device: DeviceInfo) => this.startChat(text, device),
    /** The one pre-submit message while in queue (outbox; resolves with its client id). */
    preSubmit: async (conversationId: number, text: string) => ok(await this.preSubmit(conversationId, text)),
    /** Leave the queue (SPEC §4: the 3 s rule, delete when cancel fails). */
    leaveQueue: (conversationId: number) => done(this.leaveQueue(conversationId)),
    /** End an active chat (resolve); 'failed' when the server could not be told. */
    endChat: (conversationId: number) => this.endChat(conversationId),
    /** Forget an ended chat ('Stäng'). */
    closeChat: () => done(this.closeChat()),
    /**
     * 'När är det lugnast?': fetches the channel's calm times into `calmTimes`; 'offline' keeps the
     * last copy, which the screen then shows.
     */
    loadCalmTimes: (channel: number | null) => this.loadCalmTimes(channel),
    /**
     * 'Hur kändes chatten?' for the ended chat: the answer goes through the outbox (sent once, also
     * after the app was closed); 'skipped' asks nothing more.
     */
    giveFeedback: (conversationId: number, answer: FeedbackAnswer) =>
      done(this.giveFeedback(conversationId, answer)),
    /** 'Vill du berätta mer?': the free text through the outbox, or null when the child declines. */
    tellFeedback: (conversationId: number, text: string | null) =>
      done(this.tellFeedback(conversationId, text)),
    /** The UI saw the chat become active at `at` (ISO). */
    markActive: (at: string) => done(this.markActive(at)),
  };

  readonly tables: SyncModule['tables'];
  readonly hears: HubHandlers;
  /** Stops the watched chat's repeating timers. */
  private timers: Array<() => void> = [];
  private watching: number | null = null;

  constructor(
    private readonly ctx: SyncContext,
    private readonly messages: ConversationMessages,
  ) {
    this.tables = [ctx.db.chatState, ctx.db.calmTimes];
    this.hears = { [HUB_EVENTS.agentIsTyping]: (data) => this.agentTyping(data) };
    // Every reload of the conversation (hub event, status refresh) tells whether the chat has ended.
    messages.onConversationLoaded(async (conversation) => {
      if (conversation.id !== this.watching || !isFinal(conversation)) return;
      this.stop();
      await messages.loadMessages(conversation.id).catch(() => undefined);
    });
  }

  async state(): Promise<ChatStateRow> {
    return (await this.ctx.db.chatState.get('current')) ?? EMPTY_STATE;
  }

  private async patchState(patch: Partial<ChatStateRow>): Promise<void> {
    await this.ctx.db.chatState.put({ ...(await this.state()), ...patch });
  }

  private async giveFeedback(conversationId: number, answer: FeedbackAnswer): Promise<void> {
    const step = answer === 'skipped' ? 'skipped' : 'answered';
    await this.patchState({ feedback: { conversationId, step } });
    await this.ctx.enqueue({
      kind: FEEDBACK_KIND,
      path: `${conversationsBase(this.ctx)}/feedback`,
      body: { conversation: conversationId, answer },
      orderKey: `feedback:${conversationId}`,
    });
  }

  private async tellFeedback(conversationId: number, text: string | null): Promise<void> {
    await this.patchState({ feedback: { conversationId, step: 'thanked' } });
    const trimmed = text?.trim() ?? '';
    if (trimmed === '') return;
    await this.ctx.enqueue({
      kind: FEEDBACK_KIND,
      path: `${conversationsBase(this.ctx)}/feedbackText`,
      body: { conversation: conversationId, text: trimmed },
      orderKey: `feedback:${conversationId}`,
    });
  }

  private loadCalmTimes(channel: number | null): Promise<LoadResult> {
    return asLoadResult(async () => {
      const times = await this.ctx.http.get<CalmTimes>(`${conversationsBase(this.ctx)}/calmTimes`, {
        params: channel === null ? {} : { channel },
      });
      await this.ctx.db.calmTimes.put({
        ...times,
        key: calmTimesKey(channel),
        fetchedAt: this.ctx.clock.now(),
      });
    });
  }

  /** POST {api}/chat with the conversation properties; then the chat is watched. */
  async startChat(text: string | null, device: DeviceInfo): Promise<StartChatResult> {
    const { db, http, config, clock } = this.ctx;
    const profile = await db.profile.get('current');
    const properties = propertiesForNewConversation(profile, config, device, new Date(clock.now()));
    const trimmed = text?.trim() ?? '';
    try {
      const conversation = await http.post<Conversation>(
        '/chat',
        { subject: DEFAULT_CHAT_SUBJECT, text: trimmed, ...properties },
        { headers: { 'Idempotency-Key': crypto.randomUUID() } },
      );
      // Newer than any list asked before it: such a list's silence about it deletes nothing.
      this.messages.readOrder.fresher([conversation], this.messages.readOrder.ask());
      await db.conversations.put({ ...conversation, fetchedAt: clock.now() });
      await db.chatState.put({
        ...EMPTY_STATE,
        conversationId: conversation.id,
        preSubmitted: trimmed !== '',
        wasLive: true,
      });
      await this.watch(conversation.id);
      return ok(conversation.id);
    } catch (error) {
      if (isHttpError(error) && error.status === 409) {
        const status = statusOf(error.body);
        if (status === 'HasCompletedAConversation' || status === 'HasActive') {
          // Someone (another device) already has a chat going: show that one instead.
          if (status === 'HasActive') await this.resumeChat();
          return failure(status);
        }
      }
      if (isHttpError(error) && error.status === 0) return failure('offline');
      const refusal = refusalOf(error);
      if (isHttpError(error) && error.status === 429 && refusal) {
        return failure('rate_limited', refusal.message);
      }
      return failure('failed');
    }
  }

  /** GET {api}/chatAccountStatus: what the start page may offer. */
  async chatAccountStatus(): Promise<Result<ChatAccountStatus>> {
    try {
      await this.ctx.http.get('/chatAccountStatus', { report: false });
      return ok('NoCompletedConversation');
    } catch (error) {
      const status = isHttpError(error) ? statusOf(error.body) : null;
      return ok(status === 'HasCompletedAConversation' || status === 'HasActive' ? status : 'Error');
    }
  }

  /**
   * Reads the child's ongoing chat (selection=active) into Dexie and watches it; keeps a stored chat
   * that ended so the window can show how it ended. Called at sign-in and when the app opens.
   */
  async resumeChat(): Promise<LoadResult> {
    return asLoadResult(async () => {
      const order = this.messages.readOrder.ask();
      const { value } = await this.ctx.http.get<ValueList<Conversation>>(
        `${conversationsBase(this.ctx)}/conversations`,
        { params: { take: ACTIVE_CONVERSATIONS_TAKE, skip: 0, selection: 'active' } },
      );
      const ongoing = value.find((c) => c.systemType === 'chat' && c.meetingId === null && !isFinal(c));
      const stored = await this.state();
      if (ongoing) {
        if (this.messages.readOrder.fresher([ongoing], order).length > 0) {
          await this.ctx.db.conversations.put({ ...ongoing, fetchedAt: this.ctx.clock.now() });
        }
        // SPEC §4: a chat id other than the stored one means the old chat's data is cleaned first.
        if (stored.conversationId !== ongoing.id) {
          await this.ctx.db.chatState.put({ ...EMPTY_STATE, conversationId: ongoing.id, wasLive: true });
        }
        await this.watch(ongoing.id);
      } else if (stored.conversationId !== null) {
        // A stored chat that ended while the app was away: show how it ended.
        await this.messages.loadConversation(stored.conversationId).catch(() => undefined);
        await this.messages.loadMessages(stored.conversationId).catch(() => undefined);
      }
    });
  }

  /** The pre-submit message (one, while in queue): sent through the outbox, flagged so it is not repeated. */
  async preSubmit(conversationId: number, text: string): Promise<string> {
    await this.patchState({ preSubmitted: true });
    return this.messages.send(conversationId, text);
  }

  /**
   * SPEC §4 leave queue: a chat younger than 5 s waits 3 s first; if cancel fails the conversation is
   * deleted, and either way it counts as cancelled by the user.
   */
  async leaveQueue(conversationId: number): Promise<void> {
    const { db, http, clock } = this.ctx;
    await this.patchState({ cancelledByUser: true });
    const row = await db.conversations.get(conversationId);
    if (row && clock.now() - Date.parse(row.loggedDate) < YOUNG_CHAT_MS)
      await delay(clock, LEAVE_QUEUE_DELAY_MS);
    const base = conversationsBase(this.ctx);
    const cancelled = await http
      .put(`${base}/cancel`, { conversation: conversationId, reason: CANCEL_REASON })
      .then(() => true)
      .catch(() => false);
    if (!cancelled) await http.put(`${base}/delete`, { conversation: conversationId }).catch(() => undefined);
    await db.conversations.update(conversationId, {
      state: CONVERSATION_STATE.Cancelled,
      closedDate: new Date(clock.now()).toISOString(),
    });
    await this.messages.loadConversation(conversationId).catch(() => undefined);
    this.stop();
  }

  /** SPEC §4: ending an active chat resolves it. */
  async endChat(conversationId: number): Promise<Result<void, 'failed'>> {
    await this.patchState({ cancelledByUser: true });
    try {
      await this.ctx.http.put(`${conversationsBase(this.ctx)}/resolve`, { conversation: conversationId });
    } catch {
      await this.patchState({ cancelledByUser: false });
      return failure('failed');
    }
    await this.messages.loadConversation(conversationId).catch(() => undefined);
    this.stop();
    return ok(undefined);
  }

  /**
   * SPEC §4 logout with a chat: log 'Användaren loggade ut' to the conversation, then end it (resolve
   * when active, cancel when queued). Best effort: the sign-out goes on whatever the server says.
   */
  async endOnLogout(): Promise<void> {
    const { conversationId } = await this.state();
    if (conversationId === null) return;
    const row = await this.ctx.db.conversations.get(conversationId);
    if (!row || isFinal(row)) return;
    const base = conversationsBase(this.ctx);
    await this.patchState({ cancelledByUser: true });
    await this.ctx.http
      .post(`${base}/activity`, { conversation: conversationId, type: 'Log', content: LOGOUT_LOG })
      .catch(() => undefined);
    if (row.lastAgentMessageDate !== null && row.state === CONVERSATION_STATE.InProgress)
      await this.ctx.http.put(`${base}/resolve`, { conversation: conversationId }).catch(() => undefined);
    else
      await this.ctx.http
        .put(`${base}/cancel`, { conversation: conversationId, reason: CANCEL_REASON })
        .catch(() => undefined);
    this.stop();
  }

  /** SPEC §8: real-time errors while a chat is queued or active go to the conversation's log. */
  async logRealtimeError(message: string): Promise<void> {
    const id = this.watching;
    if (id === null) return;
    await this.ctx.http
      .post(
        `${conversationsBase(this.ctx)}/activity`,
        { conversation: id, type: 'Error', content: message },
        { report: false },
      )
      .catch(() => undefined);
  }

  /** 'Stäng' on an ended chat: forget it, so the start page offers a new one. */
  async closeChat(): Promise<void> {
    this.stop();
    await this.ctx.db.chatState.put(EMPTY_STATE);
  }

  /** The UI saw the chat go from waiting to active (the active-chat indicator and its time). */
  async markActive(at: string): Promise<void> {
    if (!(await this.state()).activeSince) await this.patchState({ activeSince: at });
  }

  /** Not in group support, where chats belong to meetings. */
  runsIn(features: VariantFeatures): boolean {
    return !features.supportGroup;
  }

  /** The child's ongoing chat. */
  async signedIn(): Promise<void> {
    void this.resumeChat();
  }

  /**
   * Back online: the watched chat's state and messages; with none watched (the sign-in's resume
   * found no network), the ongoing chat is looked for again.
   */
  async catchUp(): Promise<void> {
    const id = this.watching;
    if (id === null) {
      await this.resumeChat();
      return;
    }
    await this.messages.loadConversation(id);
    await this.messages.catchUpMessages(id);
  }

  /** SPEC §4: logout ends the chat (while the token still works). */
  async signingOut(reason: SignOutReason): Promise<void> {
    if (reason === 'user') await this.endOnLogout().catch(() => undefined);
  }

  /** SPEC §8: real-time errors while a chat is queued or active go to the conversation's log. */
  realtimeError(message: string): Promise<void> {
    return this.logRealtimeError(message);
  }

  reset(): void {
    this.stop();
  }

  /** Subscribes and starts SPEC §9's timers for the chat (idempotent per conversation). */
  private async watch(conversationId: number): Promise<void> {
    if (this.watching === conversationId) return;
    this.stop();
    this.watching = conversationId;
    await this.ctx.subscribe(entityKey('Conversation', conversationId));
    if (this.watching !== conversationId) return;
    // What was written between the create and the subscription.
    await this.messages.loadMessages(conversationId).catch(() => undefined);
    const base = conversationsBase(this.ctx);
    this.every(QUEUE_POSITION_MS, true, async () => {
      const row = await this.ctx.db.conversations.get(conversationId);
      if (!row || row.lastAgentMessageDate !== null) return;
      const { queuePosition, estimatedWait = null } = await this.ctx.http.get<
        Pick<Conversation, 'queuePosition' | 'estimatedWait'>
      >(`${base}/queuePosition`, { params: { conversation: conversationId, channel: row.channel ?? '' } });
      // The estimate travels with the place (server/conversations/wait-estimate.ts): kept together.
      await this.ctx.db.conversations.update(conversationId, { queuePosition, estimatedWait });
    });
    this.every(PING_MS, false, () =>
      this.ctx.http.post(`${base}/activity`, { conversation: conversationId, type: 'Ping', content: '' }),
    );
    this.every(CHAT_STATUS_REFRESH_MS, false, () => this.messages.loadConversation(conversationId));
    this.every(MESSAGES_REFETCH_MS, false, () => this.messages.loadMessages(conversationId));
  }

  private stop(): void {
    for (const stop of this.timers) stop();
    this.timers = [];
    const id = this.watching;
    this.watching = null;
    if (id !== null) void this.ctx.unsubscribe(entityKey('Conversation', id)).catch(() => undefined);
  }

  private every(ms: number, now: boolean, run: () => Promise<unknown>): void {
    this.timers.push(this.ctx.repeat(ms, run, { now }));
  }

  private async agentTyping(data: unknown): Promise<void> {
    const conversation = idOf(data, 'conversationId', 'conversation');
    if (conversation === null) return;
    await this.ctx.db.typing.put({
      key: `${conversation}:agent`,
      conversation,
      contactId: -1,
      contactName: '',
      at: this.ctx.clock.now(),
    });
  }
}
