import type { SystemNotice } from '../../contract/system-notices.ts';

/**
 * Shows a system notification from the page, when the user allowed them. Through the service
 * worker's registration where there is one (Android's Chrome knows no other way): its notices outlive
 * the tab, and a click reaches the service worker (sw/service-worker.ts), which opens `url`. Outside
 * production (no service worker) the page shows it itself, and a click brings the tab to `url`.
 */
export async function showSystemNotice(notice: SystemNotice): Promise<void> {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const registration = await navigator.serviceWorker?.getRegistration();
  const options = { tag: notice.tag, data: { url: notice.url } };
  if (registration) {
    await registration.showNotification(notice.title, options);
    return;
  }
  const shown = new Notification(notice.title, options);
  shown.onclick = () => {
    window.focus();
    // The router (wouter) follows pushState, so the app moves without a reload.
    history.pushState(null, '', notice.url);
    shown.close();
  };
}
