import { Suspense, useEffect } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { reportChatInView } from '../../worker/client/connect.ts';
import { chatWindowMinimized, chatWindowOpen, onChatWindowShown, onChatWindowWanted } from './chat-store.ts';
import { useDb } from '../data/index.ts';
import { forgetReadAhead, readNewestPage } from '../data/chat-pages.ts';
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
 * messages are read by the open window, its newest page first (src/data/chat-pages.ts), and read
 * ahead of it only as the child reaches for it: a start reads nothing of a long last chat
 * (npm run bench:coldstart).
 */
export function ChildChatHost() {
  useReportChatInView();
  const chat = useChildChat();
  const profile = useProfile();
  useReadAheadOfTheWindow(chat?.state ? (chat.conversation?.id ?? null) : null);
  useChatFromNotice(chat && chat.state !== null && chat.conversation !== null);
  return (
    <Suspense fallback={null}>
      <ChildChatWindow chat={chat} myContactId={profile?.contactId} />
    </Suspense>
  );
}

/**
 * The window's newest page, read before it opens (src/data/chat-pages.ts): when a finger or a pointer
 * goes down on what opens it, and at the showing itself, so that its messages are opened by the time
 * it draws. Nothing of the chat is read before the child reaches for it.
 */
function useReadAheadOfTheWindow(conversationId: number | null) {
  const db = useDb();
  useEffect(() => {
    if (conversationId === null) return;
    const readAhead = () =>
      readNewestPage(db, conversationId).catch((error: unknown) =>
        console.warn('Chat not read ahead', error),
      );
    const stops = [onChatWindowWanted(readAhead), onChatWindowShown(readAhead)];
    return () => stops.forEach((stop) => stop());
  }, [db, conversationId]);
  useEffect(() => () => forgetReadAhead(), []);
}

/** Tells the worker whether the chat's messages are in view: the window open and not minimised. */
function useReportChatInView() {
  useSignals();
  const inView = chatWindowOpen.value && !chatWindowMinimized.value;
  useEffect(() => reportChatInView(inView), [inView]);
}
