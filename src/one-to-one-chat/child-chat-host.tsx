import { Suspense, useEffect } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { reportChatInView } from '../../worker/client/connect.ts';
import { chatWindowMinimized, chatWindowOpen } from './chat-store.ts';
import { isGroupStyle } from '../config/variant.ts';
import { useProfile } from '../data/live-queries.ts';
import { useChatRows } from '../data/meeting-and-chat-hooks.ts';
import { lazyPage } from '../ui-kit/lazy-pages.ts';
import { useChatFromNotice } from './use-chat-from-notice.ts';
import { useChildChatWithTail } from './use-child-chat.ts';

// The chat window's code loads once a signed-in child app needs it (never in group support).
const ChildChatWindow = lazyPage(
  () => import('./child-chat-window.tsx'),
  (m) => m.ChildChat,
  (config) => !isGroupStyle(config),
);

/**
 * The child's chat, app-wide (rendered while signed in). Its data is read here, outside the lazy
 * window: the chat's state with its newest rows (one read), and the profile, are read from the cache
 * while the window's code loads, not one after the other behind it (a 2,000-message chat on screen
 * within 100 ms of the worker being ready, offline too: npm run bench:coldstart). So the minimised
 * window is ready before the child opens it, and opening it only draws.
 */
export function ChildChatHost() {
  useReportChatInView();
  const chat = useChildChatWithTail();
  const messages = useChatRows(chat?.tail.conversationId ?? null, { tail: chat?.tail });
  const profile = useProfile();
  useChatFromNotice(chat && chat.state !== null && chat.conversation !== null);
  return (
    <Suspense fallback={null}>
      <ChildChatWindow chat={chat} messages={messages} myContactId={profile?.contactId} />
    </Suspense>
  );
}

/** Tells the worker whether the chat's messages are in view: the window open and not minimised. */
function useReportChatInView() {
  useSignals();
  const inView = chatWindowOpen.value && !chatWindowMinimized.value;
  useEffect(() => reportChatInView(inView), [inView]);
}
