import { bootScreen, bootWheel } from './boot-screen.styles.ts';
import { CONFIG_TEXTS } from './texts.ts';

/** What main.tsx draws while the app's code and the runtime config load: the full-page spinner's look. */
export function BootScreen() {
  return (
    <div className={bootScreen} role="status" aria-busy="true">
      <span className={bootWheel} aria-hidden="true" />
      <span>{CONFIG_TEXTS.loading}</span>
    </div>
  );
}
