// SPEC §4 App updates: a new-version flag is set when the update check reports one; the page then
// reloads at once, or on the next navigation when the user has entered form data.
import { signal } from '@preact/signals-react';
import { UPDATE_CHECK_FAILED } from './texts.ts';
import { UPDATE_CHECK_INTERVAL_MS } from '../../contract/timings.ts';

/** The part of workbox-window's `Workbox` used here, so tests can pass a fake. */
export interface UpdateWorkbox {
  register(): Promise<unknown>;
  update(): Promise<void>;
  messageSkipWaiting(): void;
  addEventListener(type: 'waiting' | 'controlling', listener: () => void): void;
}

export interface UpdateControllerOptions {
  workbox: UpdateWorkbox;
  hasUnsavedFormData: () => boolean;
  reload: () => void;
  /** Whether a service worker controlled the page when it loaded (`navigator.serviceWorker.controller`). */
  initiallyControlled: boolean;
  /** Calls back each time the page becomes visible; returns the unsubscribe function. */
  onVisible: (listener: () => void) => () => void;
}

export interface UpdateController {
  /** Registers the service worker and starts the periodic and on-visible update checks. */
  start(): Promise<void>;
  /** One update check now; a failure is logged to the console only (SPEC §8). */
  checkForUpdate(): Promise<void>;
  /** For the router: reloads into the new version if one is waiting for a navigation. */
  reloadIfUpdatePending(): boolean;
  stop(): void;
}

/** True once a new version has been found; the shell may show it while a reload is deferred. */
export const newVersionAvailable = signal(false);
/** True while the reload waits for the next navigation because of unsaved form data. */
export const updatePending = signal(false);

export function createUpdateController(options: UpdateControllerOptions): UpdateController {
  const { workbox, hasUnsavedFormData, reload, onVisible } = options;
  let controlled = options.initiallyControlled;
  let activationRequested = false;
  let newVersionControls = false;
  let reloaded = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  let stopVisible: (() => void) | undefined;

  const reloadOnce = () => {
    if (reloaded) return;
    reloaded = true;
    updatePending.value = false;
    reload();
  };

  // The new worker waits (sw/service-worker.ts) until asked; once it controls the page, reload.
  const activate = () => {
    if (newVersionControls) return reloadOnce();
    activationRequested = true;
    workbox.messageSkipWaiting();
  };

  const reloadNowOrLater = (apply: () => void) => {
    newVersionAvailable.value = true;
    if (hasUnsavedFormData()) updatePending.value = true;
    else apply();
  };

  workbox.addEventListener('waiting', () => reloadNowOrLater(activate));
  // workbox-window's own isUpdate/isExternal flags describe the page load and its first minute, not
  // an update found by a later check, so the page's own controller history decides.
  workbox.addEventListener('controlling', () => {
    // The first install takes control too (clientsClaim); that is no new version.
    if (!controlled && !activationRequested) {
      controlled = true;
      return;
    }
    newVersionControls = true;
    if (activationRequested) reloadOnce();
    else reloadNowOrLater(reloadOnce); // another tab activated the new version
  });

  const checkForUpdate = async () => {
    try {
      await workbox.update();
    } catch (error) {
      console.error(UPDATE_CHECK_FAILED, error);
    }
  };

  return {
    async start() {
      await workbox.register();
      timer = setInterval(() => void checkForUpdate(), UPDATE_CHECK_INTERVAL_MS);
      stopVisible = onVisible(() => void checkForUpdate());
    },
    checkForUpdate,
    reloadIfUpdatePending() {
      if (!updatePending.value) return false;
      updatePending.value = false;
      activate();
      return true;
    },
    stop() {
      clearInterval(timer);
      stopVisible?.();
    },
  };
}
