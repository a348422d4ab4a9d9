import { primaryButton } from '../styles/controls.ts';
import { bootError } from './runtime-config.styles.ts';
import { CONFIG_TEXTS } from './texts.ts';

/**
 * The app could not start (no config, or its code did not load): say so and offer a reload. It is
 * the page's main landmark, where the shell's skip link leads.
 */
export function BootError() {
  return (
    <main id="main" tabIndex={-1} className={bootError}>
      <h1>{CONFIG_TEXTS.errorHeading}</h1>
      <p role="alert">{CONFIG_TEXTS.loadError}</p>
      <button type="button" className={primaryButton} onClick={() => window.location.reload()}>
        {CONFIG_TEXTS.reload}
      </button>
    </main>
  );
}
