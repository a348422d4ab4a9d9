import { Suspense, useEffect } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { reportChatInView } from '../../worker/client/connect.ts';
import { chatWindowMinimized, chatWindowOpen } from './chat-store.ts';
import { isGroupStyle } from '../config/variant.ts';
import { useProfile } from '../data/live-queries.ts';
import { lazyPage } from '../ui-kit/lazy-pages.ts';
import { useChatFromNotice } from './use-chat-from-notice.ts';
import { useChildChat } from './use-child-chat.ts';

// The chat window's code loads once a signed-in child app needs it (never in group support).
const ChildChatWindow = lazyPage(
  () => import('./child-chat-window.tsx'),
  (m) => m.ChildChat,
  (config) => !isGroupStyle(config),
);

/**
 * The child's chat, app-wide (rendered while signed in). Here only the chat's state and its
 * conversation are read (what the minimised bar says), beside the window's code as it loads; the
 * messages are read by the open window alone, its newest page first (src/data/chat-pages.ts), so a
 * start with a long last chat reads none of it until the child opens it (npm run bench:coldstart).
 */
export function ChildChatHost() {
  useReportChatInView();
  const chat = useChildChat();
  const profile = useProfile();
  useChatFromNotice(chat && chat.state !== null && chat.conversation !== null);
  return (
    <Suspense fallback={null}>
      <ChildChatWindow chat={chat} myContactId={profile?.contactId} />
    </Suspense>
  );
}

/** Tells the worker whether the chat's messages are in view: the window open and not minimised. */
function useReportChatInView() {
  useSignals();
  const inView = chatWindowOpen.value && !chatWindowMinimized.value;
  useEffect(() => reportChatInView(inView), [inView]);
}
