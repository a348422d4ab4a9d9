import { bootBody, bootScreen, bootWheel } from './boot-screen.styles.ts';
import { CONFIG_TEXTS } from './texts.ts';

/**
 * What shows while the app's code (main.tsx) and then the runtime config (RuntimeConfigBoot) load:
 * the full-page spinner's look. No heading or landmark of its own: it lasts a moment, and the
 * start page's level-one heading is what a screen reader (and a test) should find first.
 */
export function BootScreen() {
  return (
    <div className={`${bootBody} ${bootScreen}`} role="status" aria-busy="true">
      <span className={bootWheel} aria-hidden="true" />
      <span>{CONFIG_TEXTS.loading}</span>
    </div>
  );
}
