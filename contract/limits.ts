import type { SystemType } from './conversations.ts';

/**
 * Every limit the clients and the server share, each once, with where it comes from (SPEC section,
 * or "ours" for a decision written down in docs/decisions.md where SPEC is silent).
 */

/** SPEC §5, §9: a group-chat message is at most 700 characters. */
export const GROUP_CHAT_MAX_LENGTH = 700;
/** Ours: a one-to-one chat message is as long as a group-chat message: the same window and counter. */
export const CHAT_MAX_LENGTH = GROUP_CHAT_MAX_LENGTH;
/** Ours (SPEC §5 "not shown"): a mail message is at most 4000 characters. */
export const MAIL_MAX_LENGTH = 4000;

/**
 * One message length per channel, the same for a child and for staff, in the server, both clients
 * and docs/decisions.md: what a conversation of each system type takes.
 */
export const MESSAGE_MAX_LENGTH_BY_CHANNEL = {
  chat: CHAT_MAX_LENGTH,
  groupchat: GROUP_CHAT_MAX_LENGTH,
  mail: MAIL_MAX_LENGTH,
} as const satisfies Record<SystemType, number>;
/** The longest message any channel takes: what a request body may carry before its channel is known. */
export const MESSAGE_MAX_LENGTH = Math.max(...Object.values(MESSAGE_MAX_LENGTH_BY_CHANNEL));
/** SPEC §5, §9: a private message to the group leaders is at most 800 characters. */
export const PRIVATE_MESSAGE_MAX_LENGTH = 800;
/** Ours: a counsellor's note for the next counsellor, and how many of a child's the console shows. */
export const COUNSELLOR_NOTE_MAX_LENGTH = 1000;
export const COUNSELLOR_NOTES_SHOWN = 20;
/** SPEC §5, §9: a personal code has at least 10 characters. */
export const PERSONAL_CODE_MIN_LENGTH = 10;
/** Ours: a password has at least 8 characters that are not blank (server/security/password-policy.ts). */
export const MIN_PASSWORD_LENGTH = 8;
/** Ours: usernames are 3-30 of a-z 0-9 . _ - */
export const USERNAME_PATTERN = /^[a-z0-9._-]{3,30}$/;
/** Ours: a conversation or meeting subject. */
export const SUBJECT_MAX_LENGTH = 200;
/** Ours: the subject the new-mail form takes, kept short for the list of threads. */
export const MAIL_SUBJECT_MAX_LENGTH = 100;
/** Ours: a meeting's description. */
export const MEETING_DESCRIPTION_MAX_LENGTH = 5000;
/** Ours: one property value a child sends with a new conversation (age, gender, device). */
export const CONVERSATION_PROPERTY_MAX_LENGTH = 500;
/** Ours: one profile property value (birth year, gender). */
export const PROFILE_PROPERTY_MAX_LENGTH = 200;
/** Ours: the reason a child gives for leaving the queue. */
export const CANCEL_REASON_MAX_LENGTH = 500;
/** Ours: a group participant's name as the leader writes it. */
export const PARTICIPANT_NAME_MAX_LENGTH = 100;

/**
 * SPEC §9 "Chat limited to 45 minutes once per day": a child's live one-to-one chat time per day
 * (Europe/Stockholm); the server ends the chat when it is used up (server/conversations/chat-limit.ts).
 */
export const CHAT_DAILY_LIMIT_MS = 45 * 60_000;
/** Ours: the child and the counsellor see the time left ('X minuter kvar') in the last 10 minutes. */
export const CHAT_TIME_LEFT_SHOWN_MS = 10 * 60_000;
/** Ours: screen readers are told the time left at these minutes only, not every minute. */
export const CHAT_TIME_LEFT_ANNOUNCED_AT: readonly number[] = [10, 5, 1];

/** SPEC §7, §9: conversation lists take 9999 from 0; the active query takes 999. */
export const CONVERSATION_LIST_TAKE = 9999;
export const ACTIVE_CONVERSATIONS_TAKE = 999;
/**
 * Ours: a message list asked with `since` (the catch-up cursor) also answers the messages logged up
 * to this long before the cursor's message: one whose write committed after a later one's (ids are
 * handed out before commit) is fetched again, never skipped (docs/decisions.md "Catch-up by cursor").
 */
export const MESSAGES_SINCE_OVERLAP_MS = 5 * 60_000;
/** SPEC §7, §9: notifications of the last 30 days, at most 1000. */
export const NOTIFICATIONS_TAKE = 1000;
export const NOTIFICATIONS_DAYS = 30;

/** SPEC §9: favourite is rating 5, not favourite 1, shown as favourite when above 3. */
export const RATING = { favourite: 5, notFavourite: 1, favouriteAbove: 3 } as const;

/** Ours (SPEC §5 "not shown"): uploads, shown beside the upload button and enforced by the server. */
export const UPLOAD_LIMITS = {
  maxBytes: 10 * 1024 * 1024,
  quotaBytes: 50 * 1024 * 1024,
  /** By real content, not by name: PDF, images, Word/OpenDocument text and plain text. */
  allowedKinds: ['pdf', 'png', 'jpeg', 'gif', 'webp', 'heic', 'docx', 'odt', 'txt'] as const,
  acceptAttribute: '.pdf,.png,.jpg,.jpeg,.gif,.webp,.heic,.docx,.odt,.txt',
} as const;

/** SPEC §9 layout: the new-message prompt shows when more than 72 px from the bottom. */
export const NEW_MESSAGE_PROMPT_PX = 72;

/** Ours: longer usernames and passwords are refused before anything is counted, stored or hashed. */
export const LOGIN_NAME_MAX_LENGTH = 100;
export const PASSWORD_MAX_LENGTH = 1000;

/** Ours: the name a child chooses to be seen by (Peers' author name), in characters. */
export const DISPLAY_NAME_MAX_LENGTH = 40;

/** Ours: a peer post's subject, its text, and a reply to it. */
export const PEER_POST_SUBJECT_MAX_LENGTH = 120;
export const PEER_POST_TEXT_MAX_LENGTH = 2000;
export const PEER_REPLY_MAX_LENGTH = 1000;
/** Ours: the reason a counsellor gives the author when a post or reply is rejected. */
export const PEER_REJECT_REASON_MAX_LENGTH = 500;
