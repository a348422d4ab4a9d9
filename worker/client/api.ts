/**
 * The one typed connection between the UI and the data worker (Comlink). The UI may import this
 * folder (`worker/client/`) only; everything else under `worker/` is the worker's own.
 *
 * Each command is declared once, in the `commands` table of the module that implements it (the
 * session's in `portal-worker.ts`); the module registry (worker/modules.ts) is the worker's shape,
 * and this file only says, per command, what a new worker does with it (COMMAND_RETRY).
 */
import type { WorkerCommands } from '../modules.ts';

export * from '../base/session.ts';

/** Every command the worker answers: derived from the module registry (worker/modules.ts). */
export type { WorkerCommands };

/** What a tab calls: the commands, and the build-id handshake that tells the worker of the tab. */
export interface WorkerApi extends WorkerCommands {
  /** Build-id handshake: `ok` false means this tab and the worker are of different builds. */
  hello(buildId: string, tabId: string): Promise<{ buildId: string; ok: boolean }>;
}

/**
 * Commands that open something a tab must close again, with their closing command. The worker
 * counts them per tab and closes them for a tab that went away (worker/entry.ts).
 */
export const TAB_HOLDS = {
  openGroupChat: 'closeGroupChat',
  openConversation: 'closeConversation',
} as const satisfies Partial<Record<keyof WorkerCommands, keyof WorkerCommands>>;

/**
 * A standing command: what it registers lasts after it answered, so a new worker must be told again
 * what the tab still holds when the old one died (worker/client/standing-registrations.ts).
 * - `open`: held until `closedBy` is called with the same first argument; held once per open.
 * - `switch`: the last argument (true or false) turns it on or off for the arguments before it,
 *   counted like an open and its close.
 * - `latest`: the tab's own state; the last call for the same leading arguments is what holds.
 */
export type Standing =
  | { readonly standing: 'open'; readonly closedBy: keyof WorkerCommands }
  | { readonly standing: 'switch' }
  | { readonly standing: 'latest' };

/**
 * What the bridge does with a command when its worker dies (worker/client/worker-bridge.ts):
 * 'repeat' sends it again to the new worker if it had not answered (reads and idempotent writes);
 * 'once' answers `worker_lost` instead, where a second run could do the thing twice (a message, a
 * new account); a standing command is repeated too, and what it registered is replayed on every
 * new worker. Every command is listed (the type checks it), which also gives the worker the names
 * to expose; the one table decides both what is repeated and what is replayed.
 */
export type CommandRetry = 'repeat' | 'once' | Standing;

const SWITCH = { standing: 'switch' } as const;
const LATEST = { standing: 'latest' } as const;
const openClosedBy = (closedBy: keyof WorkerCommands) => ({ standing: 'open', closedBy }) as const;

export const COMMAND_RETRY: { readonly [K in keyof WorkerCommands]-?: CommandRetry } = {
  login: 'once',
  assistantToken: 'repeat',
  loadAssistantContent: 'repeat',
  askAssistant: 'repeat',
  logout: 'repeat',
  quickExit: 'repeat',
  exitHandle: 'repeat',
  becameVisible: 'repeat',
  // An event, not a state: the new worker reads the network itself when it starts.
  networkChanged: 'repeat',
  checkConnection: 'repeat',
  clearThreadCache: 'repeat',
  clearMyPagesCache: 'repeat',
  reportError: 'repeat',
  enqueue: 'once',
  flushOutbox: 'repeat',
  subscribe: openClosedBy('unsubscribe'),
  unsubscribe: 'repeat',
  loadMeetings: 'repeat',
  loadMeeting: 'repeat',
  sendPrivateMessage: 'once',
  uploadHomework: 'once',
  deleteMeetingMessage: 'once',
  downloadAppendix: 'repeat',
  downloadMeetingMessageFile: 'repeat',
  watchMeeting: SWITCH,
  openGroupChat: openClosedBy(TAB_HOLDS.openGroupChat),
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
  loadCalmTimes: 'repeat',
  giveFeedback: 'repeat',
  tellFeedback: 'repeat',
  loadConversations: 'repeat',
  openConversation: openClosedBy(TAB_HOLDS.openConversation),
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
  tabVisibility: LATEST,
  chatInView: LATEST,
  answerNoticeQuestion: 'repeat',
  pushKey: 'repeat',
  // The server keeps one subscription per login: the same one again replaces it with itself.
  savePushSubscription: 'repeat',
};

export const COMMAND_NAMES = Object.keys(COMMAND_RETRY) as (keyof WorkerCommands)[];
