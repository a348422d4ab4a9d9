import { useEffect, useRef } from 'react';
import { showToast } from '../dialogs/toast-store.ts';
import { useAssistantChat } from './assistant-chat.ts';
import { setPendingChat } from './assistant-conversation.ts';
import { ASSISTANT_TEXTS as T } from './texts.ts';

/**
 * The chat a signed-out child asked the assistant for, started once they are signed in; if it cannot
 * start, a toast says why wherever the child is (the panel may be closed by then).
 */
export function PendingAssistantChat({ share }: { share: boolean }) {
  const chat = useAssistantChat();
  // Once per request, also where an effect runs twice (StrictMode).
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    setPendingChat(null);
    void chat.start(share).then((reason) => {
      if (reason) showToast(reason, { kind: 'error', title: T.chatNotStarted });
    });
  }, [chat, share]);
  return null;
}
