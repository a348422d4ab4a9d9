import Dexie, { type DexieOptions, type EntityTable } from 'dexie';
import { sealAtRest, type AtRestKey } from './at-rest.ts';
import type {
  AppendixRow,
  ChatMessageRow,
  ConnectionRow,
  ConversationRow,
  MeetingMessageRow,
  MeetingRow,
  TypingRow,
  UploadRow,
} from './group-support.ts';
import type { ContactMessageRow, NotificationRow } from './account.ts';
import type { CalmTimesRow, ChatStateRow } from './one-to-one-chat.ts';
import type { AssistantContentRow } from './assistant.ts';
import type { PeerPostRow, PeerReplyRow } from './peers.ts';
import type { AuthStatus, HubState, NoticeAnswer, OutboxStatus, SignOutReason } from './session.ts';

/**
 * The data the UI reads with live queries. Only the worker writes it (SPEC data, session, hub state,
 * outbox); tokens live in the worker's own database (`portal-auth`), never here.
 */
export interface SessionRow {
  id: 'current';
  status: AuthStatus;
  /** Set when the last sign-out was not the user's choice. */
  signOutReason?: SignOutReason;
  changedAt: number;
}

export interface ProfileRow {
  id: 'current';
  /** SPEC §3 "username (from contact name)": the name others see, '' until the child chooses one. */
  username: string;
  /** The login name, shown to the child alone ('Inloggad som'); null for a personal code. */
  loginName?: string | null;
  contactId: number;
  properties: Record<string, string>;
  createdAt: string;
}

export interface RuntimeRow {
  id: 'current';
  hubState: HubState;
  /** Unprocessed notifications, summed from the count endpoint (header dot). */
  notificationCount: number;
  online: boolean;
  /**
   * The server answered the last call with a server error (5xx): it is there but not serving. Cleared
   * by the next answer below 500. Told on screen like a line that does not answer.
   */
  serverTrouble?: boolean;
  /** Whether the child wanted system notifications, once asked (kept across sign-outs). */
  noticeAnswer?: NoticeAnswer;
  /**
   * The children (contact ids) who said 'Ja, tack' on this browser: only they are subscribed to Web
   * Push here, so another child signing in on the same browser is never subscribed by someone else's yes.
   */
  pushContacts?: number[];
}

export interface OutboxRow {
  clientId: string;
  kind: string;
  path: string;
  body: unknown;
  orderKey: string;
  status: OutboxStatus;
  attempts: number;
  createdAt: number;
  nextAttemptAt: number;
  /** Technical detail of the last failed attempt, for the log, never for the screen. */
  lastError?: string;
  /** HTTP status of the last failed attempt (0: no answer). */
  lastStatus?: number;
  /** Until when the server asked to wait (its Retry-After): not even the network's return sends it sooner. */
  serverWaitUntil?: number;
  /** The server's Swedish `message` of the last failed attempt (its `{ error, message }` body). */
  lastMessage?: string;
  /** A failed row that is never retried (a 4xx answer other than 408/429). */
  final?: boolean;
  /** The server's answer once sent. */
  response?: unknown;
}

/** HTTP 429: the server asked the client to wait (too many writes), and said how long. */
export const RATE_LIMITED_STATUS = 429;

/**
 * A row the server refused for now because too much was sent in a short time: it is retried on its
 * own once the server's `Retry-After` has passed, and `lastMessage` says so in Swedish.
 */
export const isRateLimited = (row: Pick<OutboxRow, 'status' | 'final' | 'lastStatus'>): boolean =>
  row.status === 'failed' && !row.final && row.lastStatus === RATE_LIMITED_STATUS;

/**
 * Tables stored as they are: the session's status (the first screen reads it before the data layer
 * has loaded: worker/client/session-peek.ts), the connection's state and the assistant's public
 * content. Nothing in them is the child's. Every other table is sealed at rest (at-rest.ts).
 */
export const PLAIN_TABLES: ReadonlySet<string> = new Set(['session', 'runtime', 'assistantContent']);

export class PortalDb extends Dexie {
  session!: EntityTable<SessionRow, 'id'>;
  profile!: EntityTable<ProfileRow, 'id'>;
  runtime!: EntityTable<RuntimeRow, 'id'>;
  outbox!: EntityTable<OutboxRow, 'clientId'>;
  meetings!: EntityTable<MeetingRow, 'id'>;
  meetingMessages!: EntityTable<MeetingMessageRow, 'id'>;
  appendices!: EntityTable<AppendixRow, 'id'>;
  conversations!: EntityTable<ConversationRow, 'id'>;
  chatMessages!: EntityTable<ChatMessageRow, 'key'>;
  connections!: EntityTable<ConnectionRow, 'key'>;
  typing!: EntityTable<TypingRow, 'key'>;
  uploads!: EntityTable<UploadRow, 'id'>;
  chatState!: EntityTable<ChatStateRow, 'id'>;
  calmTimes!: EntityTable<CalmTimesRow, 'key'>;
  notifications!: EntityTable<NotificationRow, 'id'>;
  contactMessages!: EntityTable<ContactMessageRow, 'Id'>;
  assistantContent!: EntityTable<AssistantContentRow, 'id'>;
  peerPosts!: EntityTable<PeerPostRow, 'id'>;
  peerReplies!: EntityTable<PeerReplyRow, 'id'>;

  /**
   * `options` carries another IndexedDB (an in-memory one in shared-device mode); `atRest` seals
   * the rows on disk (every table but PLAIN_TABLES).
   */
  constructor(name = 'portal-data', options?: DexieOptions, atRest?: AtRestKey) {
    super(name, options);
    if (atRest) this.use(sealAtRest(atRest, (table) => !PLAIN_TABLES.has(table)));
    this.version(1).stores({
      session: 'id',
      profile: 'id',
      runtime: 'id',
      outbox: 'clientId, status, orderKey, [status+nextAttemptAt], createdAt',
      caches: 'key',
    });
    // Group support (SPEC §2, §3): meetings and their chat, cached for offline reading.
    this.version(2).stores({
      meetings: 'id, startDate',
      meetingMessages: 'id, meetingId',
      appendices: 'id, meetingId',
      conversations: 'id, meetingId',
      chatMessages: 'key, conversation, [conversation+loggedDate], clientId',
      connections: 'key, conversation',
      typing: 'key, conversation',
      uploads: 'id, meetingId',
    });
    // The child app (SPEC §2 chat window, my pages): the one-to-one chat's local flags, notifications
    // and contact messages. Mail and chat history live in `conversations` and `chatMessages`.
    this.version(3).stores({
      chatState: 'id',
      notifications: 'id, isProcessed',
      contactMessages: 'Id',
    });
    // The virtual assistant's guided content, public and kept for offline use. What a
    // child asks the assistant lives only in the tab, never here.
    this.version(4).stores({
      assistantContent: 'id',
    });
    // Peers: the board, the user's own posts and the replies of the posts they opened.
    this.version(5).stores({
      peerPosts: 'id, state',
      peerReplies: 'id, postId',
    });
    // SPEC §3's session caches (thread list, my-pages data) are the tables above, read live and
    // refetched on the logo and on my pages: the separate cache table was never written.
    this.version(6).stores({ caches: null });
    // 'När är det lugnast?': the last copy of each channel's calm times, for offline reading.
    this.version(7).stores({ calmTimes: 'key' });
  }
}
