import { createElement, isValidElement, use, type ComponentType, type ReactNode } from 'react';
import type { RuntimeConfig } from '../../contract/config.ts';
import { whenIdle } from './when-idle.ts';

interface PageLoader {
  load: () => Promise<unknown>;
  /** Whether this deployment's variant has the page at all; pages of other variants are not fetched. */
  inVariant: (config: RuntimeConfig) => boolean;
  /** In the app chunk (vite.config.ts), which comes with the data layer. */
  withDataLayer: boolean;
}

const loaders: PageLoader[] = [];

const everyVariant = () => true;

/** A lazily loaded component, and the fetch of its code ahead of its first render. */
export type LazyPage<P> = ComponentType<P> & { preload(): Promise<unknown> };

/**
 * A page (or a part of one) that loads on first use: it suspends until its code is in, and renders
 * at once from then on (also on its first render when `preload()` fetched it before, so a part that
 * was loaded ahead never shows its Suspense fallback). Its loader is also remembered, so
 * `preloadPages()` can fetch the current variant's pages once the first screen is idle: then a child
 * who goes offline can still open them. (The service worker, registered only in production,
 * precaches every page of every variant.) A failed fetch stays failed: the error boundary offers a
 * reload.
 */
export function lazyPage<M, P extends object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
  inVariant: (config: RuntimeConfig) => boolean = everyVariant,
  { withDataLayer = false }: { withDataLayer?: boolean } = {},
): LazyPage<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= settledPromise(load().then(pick));
    return loading;
  };
  loaders.push({ load: preload, inVariant, withDataLayer });
  function Lazy(props: P) {
    // use() on every render (React tracks it like a hook); a promise already settled is read
    // synchronously, without suspending.
    return createElement(use(preload()), props);
  }
  return Object.assign(Lazy, { preload });
}

/** `promise`, which says when it has settled as React's use() reads it: `status`, `value`, `reason`. */
function settledPromise<T>(promise: Promise<T>): Promise<T> {
  promise.then(
    (value) => Object.assign(promise, { status: 'fulfilled', value }),
    (reason: unknown) => Object.assign(promise, { status: 'rejected', reason }),
  );
  return promise;
}

/** Fetches the code of `page` when it is a lazy page's element (a guard waiting to show it). */
export function preloadPageOf(page: ReactNode): void {
  if (!isValidElement(page)) return;
  const { preload } = page.type as Partial<LazyPage<unknown>>;
  preload?.().catch(() => undefined);
}

/**
 * The parts that come in the data layer's chunk (a signed-in child's start page, header buttons and
 * chat), made ready once it is in: a signed-in child's first screen then draws them at once, instead
 * of showing its fallback while their import settles (React holds a fallback on screen for a while).
 */
export function preloadDataLayerParts(): void {
  for (const loader of loaders) if (loader.withDataLayer) loader.load().catch(() => undefined);
}

/**
 * Fetches the pages of `config`'s variant (not those of the other variants) in the background, one
 * per idle period, so that no task of the first seconds is long (total blocking time); returns a
 * cancel.
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
