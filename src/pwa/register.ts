// The service worker's registration and update handling (SPEC §4 App updates, §7 Service worker):
// loaded by startPwa() only when it registers, after the page has loaded (workbox-window
// is no part of the start page's code).
import { Workbox } from 'workbox-window';
import { trustedScriptUrl } from '../../client-kit/security/trusted-types-policy.ts';
import { createUpdateController, type UpdateController } from './update-controller.ts';

/** Registers `url` and starts the update checks; returns the controller (also when registration failed). */
export function registerServiceWorker(
  url: string,
  hasUnsavedFormData: () => boolean,
  onVisible: (listener: () => void) => () => void,
): { controller: UpdateController; started: Promise<void> } {
  const workbox = new Workbox(trustedScriptUrl(url), { scope: '/' });
  const controller = createUpdateController({
    workbox,
    hasUnsavedFormData,
    reload: () => window.location.reload(),
    initiallyControlled: navigator.serviceWorker.controller !== null,
    onVisible,
  });
  return { controller, started: controller.start() };
}
