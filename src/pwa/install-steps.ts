// Ours (SPEC §2 Install modal offers installation where the browser does): iPhone and iPad Safari
// never fire `beforeinstallprompt`, so the install modal shows the steps of Safari's own menu instead.
import { signal } from '@preact/signals-react';

/** True while the install modal shows Safari's steps; false once closed or where they do not apply. */
export const installSteps = signal(false);

/** Remembers that the steps were closed (a login clears it, as it clears all localStorage: SPEC §4). */
const CLOSED_KEY = 'install-steps-closed';

/**
 * Safari on an iPhone, iPod or iPad. iPadOS Safari presents itself as a Mac by default; only the
 * touch screen tells them apart. Other iOS browsers (Chrome, Firefox, Edge, Opera) have other menus,
 * and in-app browsers (no `Safari/` token) cannot add to the home screen at all.
 */
export function isIosSafari(userAgent: string, maxTouchPoints: number): boolean {
  const iosDevice = /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
  return iosDevice && /Safari\//.test(userAgent) && !/CriOS|FxiOS|EdgiOS|OPiOS/.test(userAgent);
}

/** Opened from the home screen: nothing left to install. */
function isStandalone(win: Window): boolean {
  const iosStandalone = (win.navigator as Navigator & { standalone?: boolean }).standalone === true;
  return iosStandalone || win.matchMedia('(display-mode: standalone)').matches;
}

function closedBefore(win: Window): boolean {
  try {
    return win.localStorage.getItem(CLOSED_KEY) !== null;
  } catch {
    return false;
  }
}

/** Shows the steps on iPhone and iPad Safari, when the app starts, until they have been closed once. */
export function offerInstallSteps(win: Window = window): void {
  const { userAgent, maxTouchPoints } = win.navigator;
  if (!isIosSafari(userAgent, maxTouchPoints) || isStandalone(win) || closedBefore(win)) return;
  installSteps.value = true;
}

export function closeInstallSteps(win: Window = window): void {
  installSteps.value = false;
  try {
    win.localStorage.setItem(CLOSED_KEY, '1');
  } catch {
    // Storage refused (private mode, quota): the steps may come again at the next start.
  }
}
