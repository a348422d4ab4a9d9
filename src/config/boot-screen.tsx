import { BOOT_CLASSES } from './boot-screen-markup.ts';
import './boot-screen.styles.ts';
import { CONFIG_TEXTS } from './texts.ts';

/**
 * What shows while the app's code (main.tsx) and then the runtime config (RuntimeConfigBoot) load:
 * the full-page spinner's look. No heading or landmark of its own: it lasts a moment, and the
 * start page's level-one heading is what a screen reader (and a test) should find first. index.html
 * holds the same markup (boot-screen-markup.ts), so it is on screen before any script runs.
 */
export function BootScreen() {
  return (
    <div className={BOOT_CLASSES.screen} role="status" aria-busy="true">
      <span className={BOOT_CLASSES.wheel} aria-hidden="true" />
      <span>{CONFIG_TEXTS.loading}</span>
    </div>
  );
}
