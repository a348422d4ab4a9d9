import './page-dom.ts';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IFRAME_OPEN_DELAY_MS } from '../../contract/timings.ts';
import { EmbeddedPageDialog, isOwnHost } from '../../src/dialogs/embedded-page-dialog.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const PAGE = 'https://stodlinjen.example/om-oss';

describe('the embedded-page dialog (SPEC §2)', () => {
  it('opens 50 ms after it is given a page, not before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    render(<EmbeddedPageDialog url={PAGE} title="Om oss" onClose={() => undefined} />);
    await act(() => vi.advanceTimersByTimeAsync(IFRAME_OPEN_DELAY_MS - 1));
    expect(screen.queryByRole('dialog', { name: 'Om oss' })).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByRole('dialog', { name: 'Om oss' })).toBeTruthy();
  });

  it("knows the product's own hosts, where a frame that lands closes the dialog", () => {
    expect(isOwnHost(location.hostname)).toBe(true);
    for (const host of [
      'barn.stodlinjen.se',
      'peers.stodlinjen.se',
      'test-barn.example.org',
      'app.test.example',
    ])
      expect([host, isOwnHost(host)]).toEqual([host, true]);
    for (const host of ['stodlinjen.example', 'example.org', 'barnen.example.org'])
      expect([host, isOwnHost(host)]).toEqual([host, false]);
  });
});
