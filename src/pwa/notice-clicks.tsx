import { useEffect } from 'react';
import { useLocation } from 'wouter';
import type { OpenNoticeMessage } from '../../contract/system-notices.ts';

/**
 * A click on a system notification: the service worker asks this tab to go to the notice's chat or
 * thread (sw/service-worker.ts), which the router does without a reload.
 */
export function NoticeClicks() {
  const [, navigate] = useLocation();
  useEffect(() => {
    const container = navigator.serviceWorker;
    if (!container) return;
    const onMessage = (event: MessageEvent<unknown>) => {
      const message = event.data as Partial<OpenNoticeMessage> | null;
      if (message?.type === 'open-notice' && typeof message.url === 'string') navigate(message.url);
    };
    container.addEventListener('message', onMessage);
    return () => container.removeEventListener('message', onMessage);
  }, [navigate]);
  return null;
}
