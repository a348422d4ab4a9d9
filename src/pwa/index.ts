// The PWA layer's entry for the app shell: service worker registration and update handling
// (SPEC §1, §4 App updates, §7 Service worker, §9 timings). The shell calls startPwa() once it knows
// the runtime config, and renders <InstallModal /> from ./install-modal.tsx.
import type { UpdateController } from './update-controller.ts';
import { SERVICE_WORKER_DELAY_MS } from '../../contract/timings.ts';

export { installPrompt, isMobileUserAgent } from './install-prompt.ts';

export const SERVICE_WORKER_URL = '/sw.js';

export interface StartPwaOptions {
  /** `production` of the runtime config: no service worker elsewhere (SPEC §7). */
  production: boolean;
  /** True while the user has typed into a form; an update then waits for the next navigation. */
  hasUnsavedFormData: () => boolean;
}

declare global {
  interface Window {
    /** e2e only: a shorter registration delay, read once by startPwa(). It can only shorten a wait. */
    __PWA_TEST_DELAY_MS__?: number;
  }
}

let controller: UpdateController | undefined;
let started = false;

export function startPwa({ production, hasUnsavedFormData }: StartPwaOptions): void {
  if (started || !production || !('serviceWorker' in navigator)) return;
  started = true;
  const delay = registrationDelay();
  afterLoad(() => setTimeout(() => void register(hasUnsavedFormData), delay));
}

/**
 * For the router, on every navigation: reloads into a new version that was held back because of
 * form data. Returns true when a reload is under way. Browser back/forward and wouter's pushState
 * navigations are already watched here.
 */
export function reloadIfUpdatePending(): boolean {
  return controller?.reloadIfUpdatePending() ?? false;
}

async function register(hasUnsavedFormData: () => boolean) {
  try {
    const { registerServiceWorker } = await import('./register.ts');
    const registration = registerServiceWorker(SERVICE_WORKER_URL, hasUnsavedFormData, onVisible);
    controller = registration.controller;
    // wouter announces its navigations as a window 'pushState' event (it patches history.pushState).
    window.addEventListener('popstate', reloadIfUpdatePending);
    window.addEventListener('pushState', reloadIfUpdatePending);
    await registration.started;
  } catch (error) {
    console.error('Service worker registration failed:', error);
  }
}

function onVisible(listener: () => void): () => void {
  const handler = () => {
    if (document.visibilityState === 'visible') listener();
  };
  document.addEventListener('visibilitychange', handler);
  return () => document.removeEventListener('visibilitychange', handler);
}

/** "Stable" = the window has loaded (all of the first page's resources are in). */
function afterLoad(run: () => void) {
  if (document.readyState === 'complete') run();
  else window.addEventListener('load', run, { once: true });
}

function registrationDelay(): number {
  const value = window.__PWA_TEST_DELAY_MS__;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
    ? Math.min(value, SERVICE_WORKER_DELAY_MS)
    : SERVICE_WORKER_DELAY_MS;
}
