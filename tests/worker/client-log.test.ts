import { describe, expect, it } from 'vitest';
import type { ClientLogRequest } from '../../contract/logging.ts';
import { VARIANT_FEATURES, type AppVariant } from '../../contract/variant.ts';
import { ClientLog, DEBOUNCE_MS, DEDUPLICATE_MS, shouldSkip } from '../../worker/client-log.ts';
import { ManualClock } from './helpers.ts';

function setup(options: { authenticated?: boolean; variant?: AppVariant } = {}) {
  const clock = new ManualClock();
  const sent: ClientLogRequest[] = [];
  let authenticated = options.authenticated ?? true;
  const log = new ClientLog({
    clock,
    features: VARIANT_FEATURES[options.variant ?? 'Barn'],
    isAuthenticated: () => authenticated,
    send: async (entry) => {
      sent.push(entry);
    },
  });
  return { clock, sent, log, signOut: () => (authenticated = false) };
}

/** Lets the debounce timer's flush finish its (async) sends. */
const settle = () => new Promise((r) => setImmediate(r));

describe('client error log (SPEC §8)', () => {
  it('skips 401, 403, 405, 500 and status 0 Unknown Error, but not 404 or 0 with another text', () => {
    for (const status of [401, 403, 405, 500]) expect(shouldSkip({ message: 'x', status }, true)).toBe(true);
    expect(shouldSkip({ message: 'Http failure: Unknown Error', status: 0 }, true)).toBe(true);
    expect(shouldSkip({ message: 'x', status: 404 }, true)).toBe(false);
    expect(shouldSkip({ message: 'TypeError', status: 0 }, true)).toBe(false);
    expect(shouldSkip({ message: 'x' }, true)).toBe(false);
  });

  it("skips the browser's harmless ResizeObserver notice, as the page reports it, and keeps real errors", () => {
    const page = (message: string) => ({ message: `Uncaught error: ${message}`, url: 'https://x.test/' });
    expect(shouldSkip(page('ResizeObserver loop completed with undelivered notifications.'), true)).toBe(
      true,
    );
    expect(shouldSkip(page('ResizeObserver loop limit exceeded'), true)).toBe(true);
    expect(shouldSkip(page('TypeError: Cannot read properties of undefined'), true)).toBe(false);
  });

  it('sends nothing while signed out', async () => {
    const { clock, sent, log } = setup({ authenticated: false });
    log.report({ message: 'boom' });
    clock.advance(DEBOUNCE_MS);
    await settle();
    expect(sent).toEqual([]);
  });

  it('debounces 1 s: nothing before, one POST per distinct error after the burst', async () => {
    const { clock, sent, log } = setup();
    log.report({ message: 'a', stack: 's', url: 'https://x.example/page?code=1#top' });
    clock.advance(DEBOUNCE_MS - 1);
    log.report({ message: 'b' });
    log.report({ message: 'a', stack: 's', url: 'https://x.example/page' });
    clock.advance(DEBOUNCE_MS - 1);
    await settle();
    expect(sent).toEqual([]);
    clock.advance(1);
    await settle();
    expect(sent).toEqual([
      { message: 'a', stack: 's', url: 'https://x.example/page' },
      { message: 'b', stack: null, url: null },
    ]);
  });

  it('de-duplicates an identical error for 5 minutes', async () => {
    const { clock, sent, log } = setup();
    log.report({ message: 'same', stack: 'st' });
    clock.advance(DEBOUNCE_MS);
    await settle();
    expect(sent).toHaveLength(1);
    clock.advance(DEDUPLICATE_MS - DEBOUNCE_MS - 1);
    log.report({ message: 'same', stack: 'st' });
    log.report({ message: 'same', stack: 'another stack' });
    clock.advance(DEBOUNCE_MS);
    await settle();
    expect(sent.map((e) => e.stack)).toEqual(['st', 'another stack']);
    clock.advance(1);
    log.report({ message: 'same', stack: 'st' });
    clock.advance(DEBOUNCE_MS);
    await settle();
    expect(sent.map((e) => e.stack)).toEqual(['st', 'another stack', 'st']);
  });

  it("adds level 'error' in the Gruppstod variant only", async () => {
    const group = setup({ variant: 'Gruppstod' });
    group.log.report({ message: 'g' });
    group.clock.advance(DEBOUNCE_MS);
    await settle();
    expect(group.sent).toEqual([{ message: 'g', stack: null, url: null, level: 'error' }]);
  });
});
