import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { leaveAgainIfReturned } from './quick-exit/quick-exit.ts';

// Back into the app after a quick exit: leave again before anything is drawn.
if (!leaveAgainIfReturned()) {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
