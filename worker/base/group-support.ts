import type {
  Conversation,
  ConversationConnectionWire,
  ConversationMessageWire,
} from '../../contract/conversations.ts';
import type { Meeting, MeetingAppendix, MeetingMessage } from '../../contract/meetings.ts';

/**
 * Group support (SPEC §2 meeting list, meeting detail, chat window; §4 Conversation, Connection
 * state): what the worker keeps in Dexie and the commands the UI calls. The worker fetches, the UI
 * reads with live queries and derives everything else (sections, badges, time lines, states).
 */

/** A meeting as the server sent it; `fetchedAt` tells how fresh the cached copy is. */
export interface MeetingRow extends Meeting {
  fetchedAt: number;
}

export interface MeetingMessageRow extends MeetingMessage {
  fetchedAt: number;
}

export interface AppendixRow extends MeetingAppendix {
  fetchedAt: number;
}

export interface ConversationRow extends Conversation {
  fetchedAt: number;
}

/** A chat message: from the server, or an outgoing one still in the outbox (`clientId` set). */
export interface ChatMessageRow extends Omit<ConversationMessageWire, 'id'> {
  /** Server id, or `local:{clientId}` while the message is only in the outbox. */
  key: string;
  id: number | null;
  clientId: string | null;
  /**
   * Own messages only: 'sending' while in the outbox, 'offline' when its last attempt got no answer
   * (no network, a cut or hung line: it is sent when the network lets it), 'waiting' when the server
   * asked to wait after too many messages (it is sent on its own later), 'sent', 'failed' (refused:
   * until the user tries again or removes it).
   */
  sendStatus: 'sending' | 'offline' | 'waiting' | 'sent' | 'failed' | null;
  /** While 'waiting': the server's Swedish text saying why, when it gave one. */
  sendNotice?: string;
}

export interface ConnectionRow extends ConversationConnectionWire {
  /** `${conversation}:${contact}` */
  key: string;
}

/** Who is typing now; rows older than 5 s are ignored (SPEC §9). */
export interface TypingRow {
  key: string;
  conversation: number;
  contactId: number;
  contactName: string;
  at: number;
}

/** Upload progress of homework (SPEC §2 Uppgifter: a progress bar). */
export type UploadError = 'too_large' | 'unsupported_type' | 'failed';

export interface UploadRow {
  id: string;
  meetingId: number;
  fileName: string;
  loaded: number;
  total: number;
  status: 'uploading' | 'done' | 'failed';
  /** Why, when status is failed. */
  error?: UploadError;
}

export type { LoadResult } from './result.ts';
