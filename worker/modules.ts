import type { SessionApi } from './base/session.ts';
import type { SyncContext } from './sync/sync-context.ts';
import { mergeUnique, type Intersection, type OutboxKind, type SyncModule } from './sync/sync-module.ts';
import { AccountSync } from './sync/account.ts';
import { AssistantSync } from './sync/assistant.ts';
import { ConversationMessages } from './sync/conversation-messages.ts';
import { GroupChatSync } from './sync/group-chat.ts';
import { MailAndHistorySync } from './sync/mail-and-history.ts';
import { MeetingsSync } from './sync/meetings.ts';
import { OneToOneChatSync } from './sync/one-to-one-chat.ts';
import { PeersSync } from './sync/peers.ts';
import type { SystemNotices } from './sync/system-notices.ts';
import { WebPushSync } from './sync/web-push.ts';

/**
 * The worker's shape, in one place: every sync module by name. What the tabs may call
 * (`WorkerCommands`, worker/client/api.ts) is derived from these modules' `commands` by type, so a
 * module added here is exposed, and its commands are named in COMMAND_RETRY (the compiler asks),
 * with nothing else to list. The core (portal-worker.ts) loops over the modules, never names one.
 */
export function createModules(ctx: SyncContext, core: CoreParts) {
  const messages = new ConversationMessages(ctx);
  return {
    session: core.session,
    meetings: new MeetingsSync(ctx, messages),
    conversationMessages: messages,
    groupChat: new GroupChatSync(ctx, messages),
    oneToOneChat: new OneToOneChatSync(ctx, messages),
    mailAndHistory: new MailAndHistorySync(ctx, messages),
    account: new AccountSync(ctx),
    peers: new PeersSync(ctx),
    systemNotices: core.systemNotices(messages),
    webPush: new WebPushSync(ctx),
    assistant: new AssistantSync(ctx),
  } satisfies Record<string, SyncModule<object>>;
}

/** What the core makes itself: its own commands and tables, and the notices it asks every tab of. */
export interface CoreParts {
  session: SyncModule<SessionApi>;
  systemNotices(messages: ConversationMessages): SystemNotices;
}

export type WorkerModules = ReturnType<typeof createModules>;

/** Every command the worker answers, whichever module implements it. */
export type WorkerCommands = Intersection<WorkerModules[keyof WorkerModules]['commands']>;

/** The modules' commands as one table; a name two modules both declare is refused here. */
export const commandsOf = (modules: WorkerModules): WorkerCommands =>
  mergeUnique(
    'command',
    Object.values(modules).map((m) => m.commands),
  );

/** The modules' outbox kinds as one table, likewise. */
export const outboxKindsOf = (modules: WorkerModules): Record<string, OutboxKind> =>
  mergeUnique(
    'outbox kind',
    Object.values(modules).map((m: SyncModule<object>) => m.outboxKinds),
  );
