import { Type, type Static } from '@sinclair/typebox';
import {
  MESSAGE_MAX_LENGTH,
  SUBJECT_MAX_LENGTH,
  CANCEL_REASON_MAX_LENGTH,
  CONVERSATION_PROPERTY_MAX_LENGTH,
} from '../limits.ts';
import type { ActivityType } from '../conversations.ts';
import { AnyId, Body, DateText, Id, Int, Params, PropertyMap, Query, StringEnum, Text } from './common.ts';
import { FEEDBACK_ANSWERS, FEEDBACK_TEXT_MAX_LENGTH } from '../chat-feedback.ts';

/** SPEC §7 Conversations: what each call reads. */

/** `{appId}` of the conversation calls. */
export const AppParams = Params({ appId: Text(100) });

/** POST {api}/chat and {api}/mail: a subject, the first text (a mail needs one), the child's properties. */
export const CreateConversationBody = Body({
  subject: Type.Optional(Text(SUBJECT_MAX_LENGTH)),
  text: Type.Optional(Text(MESSAGE_MAX_LENGTH)),
  properties: Type.Optional(PropertyMap(CONVERSATION_PROPERTY_MAX_LENGTH)),
});
export type CreateConversationBody = Static<typeof CreateConversationBody>;

/** PUT .../resolve and .../delete: the conversation acted on. */
export const ConversationRefBody = Body({ conversation: AnyId });
export type ConversationRefBody = Static<typeof ConversationRefBody>;

/** PUT .../cancel: leaving the queue, with the child's reason if they gave one. */
export const CancelConversationBody = Body({
  conversation: AnyId,
  reason: Type.Optional(Text(CANCEL_REASON_MAX_LENGTH)),
});
export type CancelConversationBody = Static<typeof CancelConversationBody>;

/** PUT .../rate */
export const RateConversationBody = Body({ conversation: AnyId, rating: Int(1, 5) });
export type RateConversationBody = Static<typeof RateConversationBody>;

/** POST .../feedback: 'Hur kändes chatten?' (contract/chat-feedback.ts). */
export const ChatFeedbackBody = Body({ conversation: AnyId, answer: StringEnum(FEEDBACK_ANSWERS) });
export type ChatFeedbackBody = Static<typeof ChatFeedbackBody>;

/** POST .../feedbackText: 'Vill du berätta mer? (frivilligt)'. */
export const ChatFeedbackTextBody = Body({
  conversation: AnyId,
  text: Type.String({ minLength: 1, maxLength: FEEDBACK_TEXT_MAX_LENGTH }),
});
export type ChatFeedbackTextBody = Static<typeof ChatFeedbackTextBody>;

/** GET .../queuePosition */
export const QueuePositionQuery = Query({ conversation: AnyId, channel: Type.Optional(AnyId) });

/** GET .../channels */
export const ChannelsQuery = Query({ channel: Type.Optional(AnyId) });

/** GET .../conversations: a page of the user's conversations, or the one asked for. */
export const ConversationListQuery = Query({
  take: Type.Optional(Int(0, 1_000_000)),
  skip: Type.Optional(Int(0, 1_000_000)),
  selection: Type.Optional(Text(20)),
  conversation: Type.Optional(AnyId),
  queuePosition: Type.Optional(Text(20)),
  channel: Type.Optional(AnyId),
});
export type ConversationListQuery = Static<typeof ConversationListQuery>;

/**
 * Ours beside SPEC §7: the catch-up cursor of both message lists. `since` is the id of the newest
 * message the client holds from a complete list; the answer is what came after it, from
 * MESSAGES_SINCE_OVERLAP_MS before it on (a message that committed late is not skipped: the client
 * merges by id). Without it, the whole list, as SPEC §7 has it. See docs/decisions.md "Catch-up by
 * cursor".
 */
const MessagesSince = { since: Type.Optional(Id) };

/** GET .../messages */
export const ConversationMessagesQuery = Query({
  conversation: AnyId,
  take: Type.Optional(Int(0, 1_000_000)),
  skip: Type.Optional(Int(0, 1_000_000)),
  selection: Type.Optional(Text(20)),
  ...MessagesSince,
});
export type ConversationMessagesQuery = Static<typeof ConversationMessagesQuery>;

/** GET {api}/groupconversationmessages */
export const GroupConversationMessagesQuery = Query({ conversationId: AnyId, ...MessagesSince });

/** POST {api}/conversationmessage (the client's loggedDate says when a message written offline was written). */
export const ConversationMessageBody = Body({
  content: Text(MESSAGE_MAX_LENGTH),
  conversation: AnyId,
  loggedDate: Type.Optional(DateText),
});
export type ConversationMessageBody = Static<typeof ConversationMessageBody>;

export const ACTIVITY_TYPES = [
  'Typing',
  'Log',
  'Read',
  'Ping',
  'Error',
  'Connect',
  'Disconnect',
] as const satisfies readonly ActivityType[];

/** POST .../activity: typing, presence and read marks (SPEC §4, §7). */
export const ActivityBody = Body({
  conversation: AnyId,
  content: Type.Optional(Text(2000)),
  type: StringEnum(ACTIVITY_TYPES),
});
export type ActivityBody = Static<typeof ActivityBody>;

/** GET .../conversationConnections */
export const ConversationConnectionsQuery = Query({ conversation: AnyId });
