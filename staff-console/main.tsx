import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { StaffConsoleApp } from './app.tsx';
import { globalStyles } from './ui/styles.ts';

// The class only makes sure the global rules are part of the bundle's CSS.
document.body.classList.add(globalStyles);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StaffConsoleApp />
  </StrictMode>,
);
