/**
 * The child's one-to-one chat with a counsellor (SPEC §2 Chat window, §4 Conversation): the worker
 * creates it, keeps it fresh (queue position 15 s, ping 30 s, messages 45 s) and writes Dexie.
 */

/** Local flags of SPEC §3/§4 that outlive a reload: the stored chat id, pre-submit, cancelled by user. */
export interface ChatStateRow {
  id: 'current';
  conversationId: number | null;
  /** The child wrote the one pre-submit message (SPEC §4: a stored flag prevents repeats). */
  preSubmitted: boolean;
  /** The child left the queue or ended the chat (decides 'cancelled by the user'). */
  cancelledByUser: boolean;
  /** Set when the chat became active while this device watched (the active-chat indicator). */
  activeSince: string | null;
  /** The conversation was in the queue or active when this device last saw it (closed indicator). */
  wasLive: boolean;
}

export type StartChatResult =
  | { ok: true; conversationId: number }
  | { ok: false; error: 'HasCompletedAConversation' | 'HasActive' | 'offline' | 'failed' }
  /** Over the server's limit (429): its Swedish text, to show as it is. */
  | { ok: false; error: 'rate_limited'; message: string };

/** What the UI knows about the device (the worker cannot see display-mode). */
export interface DeviceInfo {
  userAgent: string;
  platform: string;
  installed: boolean;
}

export type ChatAccountStatus =
  'HasCompletedAConversation' | 'HasActive' | 'NoCompletedConversation' | 'Error';
