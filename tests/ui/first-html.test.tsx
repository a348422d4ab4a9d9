import './page-dom.ts';
import { act, StrictMode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeConfig } from '../../contract/config.ts';
import { fillQuickExitUrl } from '../../contract/first-screen.ts';
import { App } from '../../src/app.tsx';
import { prerenderFirstScreen } from '../../src/prerender.tsx';
import { quickExitUrlIn } from '../../src/quick-exit/quick-exit.ts';

/**
 * index.html carries the app's first render (src/prerender.tsx, at build time) and the entry
 * hydrates it. React's development build (this one) reports every difference between the HTML and
 * the first render on the console, attributes too (the production build in the e2e tests reports
 * only what makes it draw anew): none may appear.
 */
// act() as in a test environment (what @testing-library/react sets when it is loaded).
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  vi.restoreAllMocks();
});

describe('the first HTML', () => {
  it('is hydrated without a difference, also with the quick exit address the server filled in', async () => {
    // What the server hands out for QUICK_EXIT_URL=https://www.example.se/nyheter.
    const html = fillQuickExitUrl(prerenderFirstScreen(), 'https://www.example.se/nyheter');
    document.body.innerHTML = `<div id="root">${html}</div>`;
    const container = document.getElementById('root')!;
    const leave = container.querySelector('a[role="button"]')!;
    const errors = vi.spyOn(console, 'error');
    const recovered: unknown[] = [];
    const config = new Promise<RuntimeConfig>(() => undefined);

    await act(async () => {
      root = hydrateRoot(
        container,
        <StrictMode>
          <App config={config} quickExitUrl={quickExitUrlIn(container) ?? undefined} />
        </StrictMode>,
        { onRecoverableError: (error) => recovered.push(error) },
      );
    });

    expect(errors).not.toHaveBeenCalled();
    expect(recovered).toEqual([]);
    // The server's markup was kept, not drawn anew: the same element, with React's handlers on it.
    expect(container.querySelector('a[role="button"]')).toBe(leave);
    expect(leave.getAttribute('href')).toBe('https://www.example.se/nyheter');
    expect(Object.keys(leave).some((key) => key.startsWith('__reactProps$'))).toBe(true);
  });
});
