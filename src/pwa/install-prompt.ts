// SPEC §2 Install modal: the browser's install offer (`beforeinstallprompt`), kept until the user
// answers, on mobile and Android user agents only.
import { signal } from '@preact/signals-react';

/** Chromium's `BeforeInstallPromptEvent`, which is not in TypeScript's DOM lib. */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<unknown>;
  readonly userChoice?: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

/** The pending offer; null when there is none or the user has answered. */
export const installPrompt = signal<BeforeInstallPromptEvent | null>(null);

export function isMobileUserAgent(userAgent: string): boolean {
  return /Android|Mobi|iPhone|iPad|iPod/i.test(userAgent);
}

let watching = false;

/**
 * Starts listening for the browser's offer (once; later calls do nothing). The event can come before
 * the app has its config, so the entry calls this before React starts; the modal calls it too, for
 * the component tests.
 */
export function watchInstallPrompt(target: Window = window): void {
  if (watching) return;
  watching = true;
  target.addEventListener('beforeinstallprompt', (event) => {
    if (!isMobileUserAgent(target.navigator.userAgent)) return;
    // Keeps the browser's own mini-infobar away: the modal asks instead.
    event.preventDefault();
    installPrompt.value = event as BeforeInstallPromptEvent;
  });
  target.addEventListener('appinstalled', () => {
    installPrompt.value = null;
  });
}

/** The modal is dismissed whichever way the user answers; the event can be prompted only once. */
export async function answerInstallPrompt(install: boolean): Promise<void> {
  const event = installPrompt.value;
  installPrompt.value = null;
  if (!install || !event) return;
  try {
    await event.prompt();
  } catch (error) {
    console.warn('Install prompt failed:', error);
  }
}
