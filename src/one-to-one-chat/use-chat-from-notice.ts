import { useEffect } from 'react';
import { useLocationProperty } from 'wouter/use-browser-location';
import { CHAT_NOTICE_HASH } from '../../contract/system-notices.ts';
import { showChatWindow } from './chat-store.ts';

/**
 * A notice about the chat leads to any page with '#chatt' (noticeUrl.chat): the chat window opens
 * once the chat is known (`hasChat` undefined while loading), and the hash goes, so that a reload
 * or Back does not open it again.
 */
export function useChatFromNotice(hasChat: boolean | undefined): void {
  const hash = useLocationProperty(() => location.hash);
  useEffect(() => {
    if (hash !== CHAT_NOTICE_HASH || hasChat === undefined) return;
    if (hasChat) showChatWindow();
    history.replaceState(history.state, '', location.pathname + location.search);
  }, [hash, hasChat]);
}
