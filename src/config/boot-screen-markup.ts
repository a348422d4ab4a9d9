import { CONFIG_TEXTS } from './texts.ts';

/**
 * The loading screen's class names: global (not hashed), because the same markup is written into
 * index.html at build (vite.config.ts) and drawn by React (boot-screen.tsx); the styles are in
 * boot-screen.styles.ts, part of the entry's one stylesheet.
 */
export const BOOT_CLASSES = { screen: 'boot-screen', wheel: 'boot-wheel' } as const;

/**
 * The loading screen as static HTML, inside index.html's #root (issue 15): it is painted as soon as
 * the HTML and the one stylesheet have arrived, before any script, and React replaces it. Kept to the
 * same markup as `BootScreen` (tests/ui/boot-screen.test.tsx compares them).
 */
export function bootScreenMarkup(): string {
  return (
    `<div class="${BOOT_CLASSES.screen}" role="status" aria-busy="true">` +
    `<span class="${BOOT_CLASSES.wheel}" aria-hidden="true"></span>` +
    `<span>${CONFIG_TEXTS.loading}</span></div>`
  );
}
