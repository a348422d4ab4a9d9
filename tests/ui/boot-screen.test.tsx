import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BootScreen } from '../../src/config/boot-screen.tsx';
import { bootScreenMarkup } from '../../src/config/boot-screen-markup.ts';
import { CONFIG_TEXTS } from '../../src/config/texts.ts';

// index.html carries the loading screen as static markup (vite.config.ts), painted before any script;
// React draws BootScreen in its place while the runtime config loads. They must be the same screen,
// or the first paint would jump when React takes over.
describe('the loading screen', () => {
  it('is the same markup in index.html as React draws', () => {
    expect(renderToStaticMarkup(<BootScreen />)).toBe(bootScreenMarkup());
  });

  it('is announced as busy, with its Swedish text', () => {
    const markup = bootScreenMarkup();
    expect(markup).toContain('role="status"');
    expect(markup).toContain('aria-busy="true"');
    expect(markup).toContain(`<span>${CONFIG_TEXTS.loading}</span>`);
  });
});
