import { useEffect, useState } from 'react';
import type { ConversationMessageWire } from '../../contract/conversations.ts';
import { isContactAuthor } from '../../contract/author-kinds.ts';
import { entityKey, HUB_EVENTS } from '../../contract/hub.ts';
import { StaffApiError, useStaffApi } from '../api/staff-api.ts';
import { useEntitySubscription, useHubEvent, useHubReconnected } from '../api/staff-hub.ts';
import { COUNSELLOR_TEXTS as T } from './texts.ts';
import { useCoalescedLoader } from '../api/coalesced-loader.ts';
import { TYPING_VISIBLE_MS } from '../../contract/timings.ts';

/**
 * One conversation's messages, live: subscribed to `Conversation:{id}`, refetched on
 * ConversationMessageCreated, with the child's typing signal (conversation.contactistyping).
 */
export function useConversationMessages(conversationId: number) {
  const api = useStaffApi();
  const key = entityKey('Conversation', conversationId);
  const [messages, setMessages] = useState<ConversationMessageWire[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [childTypingAt, setChildTypingAt] = useState<number | null>(null);

  const reload = useCoalescedLoader(async () => {
    try {
      const res = await api.get<{ value: ConversationMessageWire[] }>(
        `/conversations/${conversationId}/messages`,
      );
      setMessages(res.value);
      setError(null);
    } catch (e) {
      setError(e instanceof StaffApiError ? e.message : T.messagesFailed);
    }
  });
  useEffect(reload, [reload, conversationId]);
  useEntitySubscription(key);
  useHubReconnected(reload);
  useHubEvent(HUB_EVENTS.messageCreated, (_data, eventKey) => {
    if (eventKey !== key) return;
    reload();
  });
  useHubEvent(HUB_EVENTS.contactIsTyping, (_data, eventKey) => {
    if (eventKey === key) setChildTypingAt(Date.now());
  });

  // A new message from the child ends its typing; otherwise the signal fades after 5 s.
  const lastChildMessage = messages?.filter((m) => isContactAuthor(m.authorKind)).at(-1)?.id;
  useEffect(() => setChildTypingAt(null), [lastChildMessage]);
  useEffect(() => {
    if (childTypingAt === null) return;
    const timer = setTimeout(() => setChildTypingAt(null), TYPING_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [childTypingAt]);

  /** A message the server answered with, shown at once (the hub event refetches anyway). */
  const add = (message: ConversationMessageWire) =>
    setMessages((list) => (list?.some((m) => m.id === message.id) ? list : [...(list ?? []), message]));

  return { messages, error, reload, add, childTyping: childTypingAt !== null };
}
