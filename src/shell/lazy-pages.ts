import { lazy, type ComponentType } from 'react';

const loaders: (() => Promise<unknown>)[] = [];

/**
 * A page that loads on first use. Its loader is also remembered, so `preloadPages()` can fetch every
 * page once the first screen is up: then a child who goes offline can still open them (the service
 * worker, registered only in production, keeps them for the next visits).
 */
export function lazyPage<M, P extends object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
): ComponentType<P> {
  loaders.push(load);
  return lazy(async () => ({ default: pick(await load()) }));
}

export function preloadPages(): void {
  for (const load of loaders) load().catch(() => undefined);
}
