import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BootError } from './config/boot-error.tsx';
import './config/boot-screen.styles.ts';
import { fetchConfig } from './config/fetch-config.ts';
import { leaveAgainIfReturned } from './quick-exit/quick-exit.ts';

// Back into the app after a quick exit: leave again before any page is drawn (only index.html's
// neutral loading screen may have been painted; see quick-exit.ts).
if (!leaveAgainIfReturned()) {
  // The critical path (issue 15): this entry holds the UI runtime (Preact behind React's API,
  // scripts/react-alias.ts) and the loading screen only. The app's code (data layer, shell, pages)
  // and the runtime config load side by side while the spinner shows; tests/pwa/size-budget.test.ts
  // keeps this entry and that app code, all the JS before the start page is drawn, under its budget.
  const config = fetchConfig();
  // Handled where it is used (RuntimeConfigBoot); this only keeps an early failure from being reported
  // as unhandled before the app's code has arrived.
  config.catch(() => undefined);
  const app = import('./app.tsx');
  // index.html already shows the loading screen (boot-screen-markup.ts); the first render replaces it.
  const root = createRoot(document.getElementById('root')!);
  app.then(
    ({ App }) =>
      root.render(
        <StrictMode>
          <App config={config} />
        </StrictMode>,
      ),
    (error: unknown) => {
      console.error('Bootstrap error', error);
      root.render(<BootError />);
    },
  );
}
