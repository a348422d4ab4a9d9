import { lazy, type ComponentType } from 'react';
import type { RuntimeConfig } from '../../contract/config.ts';

interface PageLoader {
  load: () => Promise<unknown>;
  /** Whether this deployment's variant has the page at all; pages of other variants are not fetched. */
  inVariant: (config: RuntimeConfig) => boolean;
}

const loaders: PageLoader[] = [];

const everyVariant = () => true;

/**
 * A page that loads on first use. Its loader is also remembered, so `preloadPages()` can fetch the
 * current variant's pages once the first screen is idle: then a child who goes offline can still open
 * them. (The service worker, registered only in production, precaches every page of every variant.)
 */
export function lazyPage<M, P extends object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
  inVariant: (config: RuntimeConfig) => boolean = everyVariant,
): ComponentType<P> {
  loaders.push({ load, inVariant });
  return lazy(async () => ({ default: pick(await load()) }));
}

/**
 * Fetches the pages of `config`'s variant (not those of the other variants) in the background, one
 * per idle period, so that no task of the first seconds is long (issue 15: total blocking time);
 * returns a cancel.
 */
export function preloadPages(config: RuntimeConfig): () => void {
  const waiting = loaders.filter(({ inVariant }) => inVariant(config));
  let cancel = () => undefined as void;
  const next = () => {
    const loader = waiting.shift();
    if (!loader) return;
    loader.load().catch(() => undefined);
    cancel = whenIdle(next);
  };
  cancel = whenIdle(next);
  return () => cancel();
}

/**
 * Runs `task` once the page is idle after its next frame is painted (a timeout where
 * requestIdleCallback is missing); returns a cancel. After a paint: on a first visit the main thread
 * idles while the database opens, before the first screen is drawn, and background fetches started
 * then would compete with that screen's (issue 15).
 */
export function whenIdle(task: () => void, fallbackMs = 1000): () => void {
  if (typeof window.requestIdleCallback !== 'function') {
    const id = window.setTimeout(task, fallbackMs);
    return () => window.clearTimeout(id);
  }
  let idle: number | undefined;
  const frame = window.requestAnimationFrame(() => {
    idle = window.requestIdleCallback(task, { timeout: 5000 });
  });
  return () => {
    window.cancelAnimationFrame(frame);
    if (idle !== undefined) window.cancelIdleCallback(idle);
  };
}
