import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './app.tsx';

/**
 * Build-time (Node): the child app's first HTML, the markup index.html carries inside #root
 * (scripts/vite-plugin-prerender-shell.ts). It is the app's first render, which the entry hydrates:
 * the shell, 'Lämna sidan' leading to the default neutral page (the server fills the configured one
 * in), and the neutral start page.
 */
export function prerenderFirstScreen(): string {
  return renderToString(
    <StrictMode>
      <App ssrPath="/" />
    </StrictMode>,
  );
}
