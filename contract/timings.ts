/**
 * Every timer of SPEC §9 (and the few of ours), each once, in milliseconds, with its SPEC reference.
 * The worker, the child app and the staff console import them from here.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** SPEC §9: a typing signal at most every 5 s; the typing indicator clears after 5 s. */
export const TYPING_SIGNAL_MIN_INTERVAL_MS = 5 * SECOND;
export const TYPING_VISIBLE_MS = 5 * SECOND;
/** Ours: how often the typing indicator looks again whether its names are still fresh. */
export const TYPING_CHECK_MS = SECOND;
/** SPEC §7, §9: ping and chat-status refresh every 30 s. */
export const PING_MS = 30 * SECOND;
export const CHAT_STATUS_REFRESH_MS = 30 * SECOND;
/** SPEC §7, §9: the queue position is refreshed every 15 s. */
export const QUEUE_POSITION_MS = 15 * SECOND;
/** SPEC §9: messages are refetched every 45 s. */
export const MESSAGES_REFETCH_MS = 45 * SECOND;
/** SPEC §9: the chat duration ('Chatt live {n} minuter') updates every 60 s. */
export const DURATION_UPDATE_MS = 60 * SECOND;
/** SPEC §9: scroll to the bottom 250 ms after new messages. */
export const SCROLL_TO_BOTTOM_DELAY_MS = 250;
/** SPEC §4, §9: leaving a chat younger than 5 s waits 3 s first. */
export const YOUNG_CHAT_MS = 5 * SECOND;
export const LEAVE_QUEUE_DELAY_MS = 3 * SECOND;
/** SPEC §4, §9: queued children must come back at least every 5 minutes to keep their place. */
export const QUEUE_RETURN_WITHIN_MS = 5 * MINUTE;
/** SPEC §4, §9: the bot messages of the queue come after 2 s, 6 s, 4 s and 0.5 s. */
export const BOT_MESSAGE_DELAYS_MS = [2 * SECOND, 6 * SECOND, 4 * SECOND, 500] as const;
/** SPEC §2, §9: a confirmation's callback fires 500 ms after the choice. */
export const CONFIRMATION_CALLBACK_MS = 500;
/** SPEC §2, §9: the embedded-page dialog opens after 50 ms, so the opener's click has settled. */
export const IFRAME_OPEN_DELAY_MS = 50;
/** SPEC §9: the pointer-up darken effect lasts 200 ms. */
export const POINTER_UP_DARKEN_MS = 200;
/** SPEC §2, §9: toasts hide after 5000 ms. */
export const TOAST_AUTOHIDE_MS = 5 * SECOND;
/** SPEC §9: the collapse animation takes 300 ms. */
export const COLLAPSE_ANIMATION_MS = 300;
/** SPEC §2, §9: a meeting card subscribes to updates 2 s after showing. */
export const MEETING_CARD_SUBSCRIBE_DELAY_MS = 2 * SECOND;
/** SPEC §2, §9: the hidden debug block needs 5 taps within 5 s. */
export const DEBUG_TAPS = 5;
export const DEBUG_WINDOW_MS = 5 * SECOND;
/** SPEC §4, §9: hub reconnect delays 0, 2 s, 10 s, 30 s, then stop. */
export const HUB_RECONNECT_DELAYS_MS = [0, 2 * SECOND, 10 * SECOND, 30 * SECOND] as const;
/** SPEC §4, §9: entity subscription retries 3 times waiting 1.5 s; the group chat window 30 times every 5 s. */
export const SUBSCRIBE_RETRIES = {
  default: { tries: 3, waitMs: 1500 },
  group: { tries: 30, waitMs: 5 * SECOND },
} as const;
/** SPEC §7: refetches on ConversationMessageCreated at most every 250 ms, Conversation.Updated every 1 s. */
export const MESSAGE_CREATED_THROTTLE_MS = 250;
export const CONVERSATION_UPDATED_THROTTLE_MS = SECOND;
/**
 * Ours (SPEC is silent): a message a hub event carried is shown at once; the fetch that reconciles
 * the conversation waits until it has been quiet for 1 s (at the latest 5 s), off the hot path.
 */
export const MESSAGE_RECONCILE_QUIET_MS = SECOND;
export const MESSAGE_RECONCILE_MAX_WAIT_MS = 5 * SECOND;
/** SPEC §4, §9: a participant is Connected within 2 minutes of a connect or ping, Away within 5. */
export const CONNECTED_WITHIN_MS = 2 * MINUTE;
export const AWAY_WITHIN_MS = 5 * MINUTE;
/** SPEC §7, §9: update check every 60 s; the service worker registers 30000 ms after the app is stable. */
export const UPDATE_CHECK_INTERVAL_MS = MINUTE;
export const SERVICE_WORKER_DELAY_MS = 30 * SECOND;
/** SPEC §9 hub library defaults: server timeout 30 s, keep-alive 15 s. */
export const HUB_SERVER_TIMEOUT_MS = 30 * SECOND;
export const HUB_KEEP_ALIVE_MS = 15 * SECOND;
/**
 * SPEC §9 authentication library: tokens are renewed at 0.75 of their lifetime (a 15-minute access
 * token after 11 min 15 s) and a renewal waits at most 20 s for its answer. Its 10 minutes of
 * clock skew have nothing to apply to here: the worker never compares a token's own times with this
 * device's clock (expiry is the moment of receipt plus `expires_in`, and the lifetime is the token's
 * `exp - iat`), so a wrong device clock cannot end a session early.
 */
export const TOKEN_TIMEOUT_FACTOR = 0.75;
export const SILENT_REFRESH_TIMEOUT_MS = 20 * SECOND;
/**
 * SPEC §9 session check every 3 s: each data worker compares the session in the shared token store
 * with the one it runs. Another worker of this browser (a tab of an older build, a dedicated worker
 * whose message was lost) may have signed out, or signed in someone else, meanwhile.
 */
export const SESSION_CHECK_INTERVAL_MS = 3 * SECOND;
/** Ours, for the staff console (online only, SPEC does not cover it): renewed 60 s before expiry. */
export const REFRESH_BEFORE_EXPIRY_MS = MINUTE;
/**
 * Ours: presence is refetched and recomputed this often, in the group leader's participant list and
 * in a participant's 'Deltagare' list (a Ping moves lastPingedDate without a hub event).
 */
export const PRESENCE_REFRESH_MS = 30 * SECOND;
/**
 * Ours: an {api} call without an answer this long is given up as "no answer" (status 0), so a hung
 * request cannot hold an outbox lane or a screen; the outbox then retries it with the same key.
 * File transfers (downloads, multipart uploads) get longer: they may be large on a slow line.
 */
export const REQUEST_TIMEOUT_MS = 10 * SECOND;
export const TRANSFER_TIMEOUT_MS = 2 * MINUTE;

/**
 * Ours: a downloaded file's object URL is revoked this long after the save dialog was asked for
 * (the browser reads it after the click returns).
 */
export const OBJECT_URL_LIFETIME_MS = 10 * SECOND;
