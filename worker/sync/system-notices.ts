import type { Conversation } from '../../contract/conversations.ts';
import { CONVERSATION_STATE, isQueuedState } from '../../contract/conversation-state.ts';
import { HUB_EVENTS, parseEntityKey } from '../../contract/hub.ts';
import { NEW_MESSAGE_NOTIFICATION } from '../../contract/notifications.ts';
import { chatNotice, threadNotice, type SystemNotice } from '../../contract/system-notices.ts';
import type { WorkerBroadcast } from '../base/session.ts';
import type { ConversationRow } from '../base/group-support.ts';
import { done } from '../base/result.ts';
import type { NoticeAnswer } from '../base/session.ts';
import type { ConversationMessages } from './conversation-messages.ts';
import { updateRuntime } from './runtime.ts';
import type { SyncContext } from './sync-context.ts';
import { everyVariant, type HubHandlers, type SyncModule } from './sync-module.ts';

/**
 * System notifications (contract/system-notices.ts): the worker hears what happened and asks one tab
 * to show the notice, through its service worker registration (a SharedWorker has none, and a
 * stopped service worker would not hear a BroadcastChannel). When a counsellor takes the child's chat
 * from the queue and when a mail is answered, always; when a counsellor writes in the chat, only
 * while no visible tab shows the chat window open (a visible tab with the chat minimised or closed
 * does not show the message: SPEC §2). Tabs report their visibility and whether the chat is in view.
 */
export class SystemNotices implements SyncModule {
  readonly commands = {
    /** A tab became visible or hidden (and tells every new worker so after the handshake). */
    tabVisibility: (tabId: string, visible: boolean) =>
      done(Promise.resolve(this.tabVisibility(tabId, visible))),
    /** The tab's chat window is open and not minimised (so its messages are in view), or not. */
    chatInView: (tabId: string, inView: boolean) => done(Promise.resolve(this.chatInViewIn(tabId, inView))),
    /** The child answered 'Vill du få en notis när det är din tur?': it is asked once per browser. */
    answerNoticeQuestion: (answer: NoticeAnswer) => done(this.answerNoticeQuestion(answer)),
  };

  // The runtime row holds the answer and outlives a sign-out: it is about the browser, not the user.
  readonly tables: SyncModule['tables'] = [];
  readonly runsIn = everyVariant;
  readonly hears: HubHandlers;
  /** The tabs that reported, with whether each is visible; the last reported last. */
  private readonly tabs = new Map<string, boolean>();
  /** The tabs whose chat window is open and not minimised. */
  private readonly chatShown = new Set<string>();

  /**
   * Kept for the browser (asked once), and for the child signed in: a yes lets Web Push subscribe
   * this browser for them alone (src/pwa/web-push-keeper.tsx), a no takes them off.
   */
  private async answerNoticeQuestion(answer: NoticeAnswer): Promise<void> {
    const { db } = this.ctx;
    await db.transaction('rw', db.runtime, db.profile, async () => {
      const contactId = (await db.profile.get('current'))?.contactId;
      const before = (await db.runtime.get('current'))?.pushContacts ?? [];
      const others = before.filter((id) => id !== contactId);
      const pushContacts = answer === 'yes' && contactId !== undefined ? [...others, contactId] : others;
      await updateRuntime(db, { noticeAnswer: answer, pushContacts });
    });
  }

  constructor(
    private readonly ctx: SyncContext,
    messages: ConversationMessages,
    private readonly broadcast: (message: WorkerBroadcast) => void,
    /** A tab was shown, hidden or closed, or its chat came into view or left it. */
    private readonly onSightChanged: () => void = () => undefined,
  ) {
    messages.onConversationLoaded((conversation, previous) => this.chatLoaded(conversation, previous));
    this.hears = { [HUB_EVENTS.notificationCreated]: (data) => this.notificationCreated(data) };
  }

  /** A closed tab is neither visible nor there to show a notice. */
  tabGone(tabId: string): void {
    this.tabs.delete(tabId);
    this.chatShown.delete(tabId);
    this.onSightChanged();
  }

  private chatInViewIn(tabId: string, inView: boolean): void {
    if (inView) this.chatShown.add(tabId);
    else this.chatShown.delete(tabId);
    this.onSightChanged();
  }

  /** Whether the child sees the chat's messages now: a visible tab shows the chat window open. */
  get chatSeen(): boolean {
    return [...this.tabs].some(([tabId, visible]) => visible && this.chatShown.has(tabId));
  }

  /** Whether a tab of this worker is visible now. */
  get anyTabVisible(): boolean {
    return [...this.tabs.values()].some(Boolean);
  }

  private tabVisibility(tabId: string, visible: boolean): void {
    this.tabs.delete(tabId);
    this.tabs.set(tabId, visible);
    this.onSightChanged();
  }

  /** The child's one-to-one chat, reloaded after a hub event or a status refresh. */
  private chatLoaded(conversation: Conversation, previous: ConversationRow | undefined): void {
    if (!previous || conversation.systemType !== 'chat' || conversation.meetingId !== null) return;
    // Taken from the queue: before the counsellor's first message, which may come in the same load.
    const joined = isQueuedState(previous.state) && conversation.state === CONVERSATION_STATE.InProgress;
    const wrote =
      conversation.lastAgentMessageDate !== null &&
      conversation.lastAgentMessageDate !== previous.lastAgentMessageDate;
    if (joined || (wrote && !this.chatSeen)) this.show(chatNotice(conversation.id));
  }

  /** A counsellor answered the child's mail (the server notifies the account: SPEC §7). */
  private notificationCreated(data: unknown): void {
    const { entity, notificationType } = (data ?? {}) as { entity?: unknown; notificationType?: unknown };
    if (notificationType !== NEW_MESSAGE_NOTIFICATION || typeof entity !== 'string') return;
    const key = parseEntityKey(entity);
    if (key?.type === 'Conversation') this.show(threadNotice(this.ctx.config.features, key.id));
  }

  /** Addressed to one tab, a visible one if any: each tab that hears it would show it again. */
  private show(notice: SystemNotice): void {
    const tabs = [...this.tabs];
    const tabId = (tabs.find(([, visible]) => visible) ?? tabs.at(-1))?.[0];
    if (tabId === undefined) return;
    this.broadcast({ type: 'system-notice', tabId, notice });
  }
}
