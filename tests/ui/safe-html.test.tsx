import './page-dom.ts';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as trustedTypes from '../../client-kit/security/trusted-types.ts';
import { SafeHtml } from '../../src/conversation-ui/safe-html.tsx';

// The real sanitiser, watched: how often a meeting's HTML is parsed and cleaned. (What it removes is
// tested in real Chromium, with the page's policy: e2e/gruppstod/stay-safe-from-injected-meeting-content.)
vi.mock('../../client-kit/security/trusted-types.ts', async (importOriginal) => {
  const real = await importOriginal<typeof trustedTypes>();
  return { ...real, trustedHtml: vi.fn(real.trustedHtml) };
});

afterEach(() => {
  cleanup();
  vi.mocked(trustedTypes.trustedHtml).mockClear();
});

describe('server HTML on a page (SafeHtml)', () => {
  it('is sanitised once per text, not again on every render of the page', () => {
    const html = '<p><b>Om gruppen</b></p><p>Vi ses varje vecka.</p>';
    const { container, rerender } = render(<SafeHtml html={html} />);
    for (let i = 0; i < 3; i++) rerender(<SafeHtml html={html} />);
    expect(trustedTypes.trustedHtml).toHaveBeenCalledTimes(1);
    expect(container.textContent).toBe('Om gruppenVi ses varje vecka.');

    rerender(<SafeHtml html="<p>Ny text</p>" />);
    expect(trustedTypes.trustedHtml).toHaveBeenCalledTimes(2);
    expect(container.textContent).toBe('Ny text');
  });
});
