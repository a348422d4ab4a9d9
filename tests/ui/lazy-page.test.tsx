import './page-dom.ts';
import { StrictMode, Suspense, type ComponentType } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyPage } from '../../src/ui-kit/lazy-pages.ts';

// A lazy page suspends until its code is in and then renders; one whose code was fetched ahead
// renders at once, without its fallback. React's development build (this one) says on the console
// when use() is called in one render of a component and not in the next: neither way may. React
// runs here as in a browser (no act()): each test waits for what the page shows.
let root: Root | undefined;
afterEach(() => {
  root?.unmount();
  root = undefined;
  vi.restoreAllMocks();
});

function Greeting({ name }: { name: string }) {
  return <p>Hej {name}!</p>;
}

/** Resolves once `container` shows `text` (at once when it already does). */
function shows(container: HTMLElement, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (container.textContent === text) return resolve();
    const observer = new MutationObserver(() => {
      if (container.textContent !== text) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(container, { childList: true, subtree: true, characterData: true });
  });
}

const page = (Page: ComponentType<{ name: string }>, name: string) => (
  <StrictMode>
    <Suspense fallback={<p>Laddar...</p>}>
      <Page name={name} />
    </Suspense>
  </StrictMode>
);

describe('a lazy page', () => {
  it('shows its fallback while its code loads, then the page, and React has nothing to say', async () => {
    const errors = vi.spyOn(console, 'error');
    let arrive: (module: { Greeting: typeof Greeting }) => void = () => undefined;
    const Page = lazyPage(
      () => new Promise<{ Greeting: typeof Greeting }>((resolve) => (arrive = resolve)),
      (module) => module.Greeting,
    );
    const container = document.createElement('div');
    document.body.replaceChildren(container);
    root = createRoot(container);
    root.render(page(Page, 'Alva'));
    await shows(container, 'Laddar...');
    arrive({ Greeting });
    await shows(container, 'Hej Alva!');
    // Drawn again with new props: the code is in, and use() is asked the same way as before.
    root.render(page(Page, 'Kim'));
    await shows(container, 'Hej Kim!');
    expect(errors).not.toHaveBeenCalled();
  });

  it('renders at once, without its fallback, when its code was fetched ahead', async () => {
    const errors = vi.spyOn(console, 'error');
    const Page = lazyPage(
      () => Promise.resolve({ Greeting }),
      (module) => module.Greeting,
    );
    await Page.preload();
    const container = document.createElement('div');
    document.body.replaceChildren(container);
    const seen: string[] = [];
    new MutationObserver(() => seen.push(container.textContent ?? '')).observe(container, {
      childList: true,
      subtree: true,
      characterData: true,
    });
    root = createRoot(container);
    root.render(page(Page, 'Noa'));
    await shows(container, 'Hej Noa!');
    expect(seen).not.toContain('Laddar...');
    expect(errors).not.toHaveBeenCalled();
  });
});
