/**
 * Mail conversations and the chat history (SPEC §2 Historic chat window, §3 Conversation, §7
 * Conversations): lists by selection, a thread's messages, favourite (rate) and delete.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface MailAndHistoryApi {}
