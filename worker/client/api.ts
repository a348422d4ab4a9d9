/**
 * The one typed connection between the UI and the data worker (Comlink). The UI may import this
 * folder (`worker/client/`) only; everything else under `worker/` is the worker's own.
 *
 * Each command is declared once, in the `commands` table of the module that implements it (the
 * session's in `portal-worker.ts`); this file only puts the tables' types together.
 */
import type { AccountCommands } from '../sync/account.ts';
import type { AssistantCommands } from '../sync/assistant.ts';
import type { ConversationMessagesCommands } from '../sync/conversation-messages.ts';
import type { GroupChatCommands } from '../sync/group-chat.ts';
import type { MailAndHistoryCommands } from '../sync/mail-and-history.ts';
import type { MeetingsCommands } from '../sync/meetings.ts';
import type { OneToOneChatCommands } from '../sync/one-to-one-chat.ts';
import type { PeersCommands } from '../sync/peers.ts';
import type { SystemNoticesCommands } from '../sync/system-notices.ts';
import type { SessionApi } from './session.ts';

export * from './session.ts';

/** Every command the worker answers, whichever module implements it. */
export type WorkerCommands = SessionApi &
  MeetingsCommands &
  GroupChatCommands &
  ConversationMessagesCommands &
  OneToOneChatCommands &
  MailAndHistoryCommands &
  AccountCommands &
  SystemNoticesCommands &
  AssistantCommands &
  PeersCommands;

/** What a tab calls: the commands, and the build-id handshake that tells the worker of the tab. */
export interface WorkerApi extends WorkerCommands {
  /** Build-id handshake: `ok` false means this tab and the worker are of different builds. */
  hello(buildId: string, tabId: string): Promise<{ buildId: string; ok: boolean }>;
}

/**
 * Whether a command may be sent again to a new worker when the one it went to died before it
 * answered: 'repeat' for reads and idempotent writes; 'once' where a second run could do the thing
 * twice (a message, a registration), so the tab is told it failed instead. Every command is listed
 * (the type checks it), which also gives the worker the names to expose.
 */
export const COMMAND_RETRY: { readonly [K in keyof WorkerCommands]-?: 'repeat' | 'once' } = {
  login: 'once',
  assistantToken: 'repeat',
  loadAssistantContent: 'repeat',
  askAssistant: 'repeat',
  logout: 'repeat',
  becameVisible: 'repeat',
  networkChanged: 'repeat',
  clearThreadCache: 'repeat',
  clearMyPagesCache: 'repeat',
  reportError: 'repeat',
  enqueue: 'once',
  flushOutbox: 'repeat',
  subscribe: 'repeat',
  unsubscribe: 'repeat',
  loadMeetings: 'repeat',
  loadMeeting: 'repeat',
  sendPrivateMessage: 'once',
  uploadHomework: 'once',
  deleteMeetingMessage: 'once',
  downloadAppendix: 'repeat',
  downloadMeetingMessageFile: 'repeat',
  watchMeeting: 'repeat',
  openGroupChat: 'repeat',
  closeGroupChat: 'repeat',
  sendChatMessage: 'once',
  replyToConversation: 'once',
  retryChatMessage: 'repeat',
  removeChatMessage: 'repeat',
  sendTyping: 'repeat',
  resumeChat: 'repeat',
  chatAccountStatus: 'repeat',
  startChat: 'once',
  preSubmit: 'once',
  leaveQueue: 'repeat',
  endChat: 'repeat',
  closeChat: 'repeat',
  markActive: 'repeat',
  loadConversations: 'repeat',
  openConversation: 'repeat',
  closeConversation: 'repeat',
  sendMail: 'once',
  setFavourite: 'repeat',
  deleteConversation: 'once',
  verifyUsername: 'repeat',
  register: 'once',
  changePassword: 'once',
  deleteAccount: 'once',
  updateProfile: 'repeat',
  setDisplayName: 'repeat',
  loadNotifications: 'repeat',
  processNotification: 'repeat',
  deleteNotification: 'once',
  loadContactMessages: 'repeat',
  processContactMessage: 'repeat',
  deleteContactMessage: 'once',
  loadPeerBoard: 'repeat',
  loadMyPeerPosts: 'repeat',
  loadPeerPost: 'repeat',
  writePeerPost: 'once',
  writePeerReply: 'once',
  reportPeerItem: 'repeat',
  tabVisibility: 'repeat',
  chatInView: 'repeat',
  answerNoticeQuestion: 'repeat',
};

export const COMMAND_NAMES = Object.keys(COMMAND_RETRY) as (keyof WorkerCommands)[];

/**
 * Commands that open something a tab must close again, with their closing command. The worker
 * counts them per tab and closes them for a tab that went away; the tab replays them on a new
 * worker after the old one died.
 */
export const TAB_HOLDS = {
  openGroupChat: 'closeGroupChat',
  openConversation: 'closeConversation',
} as const satisfies Partial<Record<keyof WorkerCommands, keyof WorkerCommands>>;
