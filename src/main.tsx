import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { fetchConfig } from './config/fetch-config.ts';
import { firstSessionPeek } from './data/index.ts';
import { RECOVERABLE_ERROR, reportUiError } from './errors/ui-error-reporting.ts';
import { watchInstallPrompt } from './pwa/install-prompt.ts';
import { leaveAgainIfReturned, quickExitUrlIn } from './quick-exit/quick-exit.ts';

// Back into the app after a quick exit: leave again before React touches the page (only the first
// HTML's neutral shell may have been painted; see quick-exit.ts).
// A page the browser brings back from its back-forward cache is not loaded again, so it looks again
// then. Listened for here, before React: a page left before the shell had mounted (a guarded page's
// redirect, a quick second navigation) went into the cache with no listener, came back on Back after
// an exit, and stayed (the quick-exit e2e failed on it in CI).
window.addEventListener('pageshow', (event) => {
  if (event.persisted) leaveAgainIfReturned(true);
});
if (!leaveAgainIfReturned()) {
  // The first screen: this entry holds React, the shell and the signed-out start page, and nothing
  // of the data layer (Dexie, the Comlink bridge), which the start page does not need to be drawn.
  // The runtime config and the session row (read without the data layer) are fetched side by side
  // while React hydrates the shell index.html already shows (src/prerender.tsx).
  const config = fetchConfig();
  // Handled where it is used (useRuntimeConfig); this only keeps an early failure from being
  // reported as unhandled before React has started.
  config.catch(() => undefined);
  void firstSessionPeek();
  // The browser's install offer can come as soon as the page has loaded, long before the config is
  // in and the install modal is mounted; kept from here, the modal shows it when it is.
  watchInstallPrompt();
  const root = document.getElementById('root')!;
  hydrateRoot(
    root,
    <StrictMode>
      <App config={config} quickExitUrl={quickExitUrlIn(root) ?? undefined} />
    </StrictMode>,
    {
      // Above all a first render that does not match the first HTML (React then draws the page
      // anew): a bug, which the tests look for in every page's console (e2e/support/test.ts).
      onRecoverableError: (error) => {
        console.error(RECOVERABLE_ERROR, error);
        reportUiError(error, RECOVERABLE_ERROR);
      },
    },
  );
}
