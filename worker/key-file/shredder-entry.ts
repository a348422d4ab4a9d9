import { privateRoot, type ShredAnswer, type ShredRequest } from '../base/at-rest-key.ts';
import { shredInPlace } from './shred-in-place.ts';

/**
 * The tab's key shredder: a dedicated worker of its own, since only a dedicated worker can overwrite
 * a file in place (shred-in-place.ts) and the data worker is a SharedWorker wherever the browser has
 * one. The page starts it once signed in (worker/client/key-shredder.ts), so a quick exit only posts
 * a message: the shred is done before the page goes.
 */
const scope = globalThis as unknown as {
  addEventListener(type: 'message', listener: (event: MessageEvent<ShredRequest>) => void): void;
  postMessage(message: ShredAnswer): void;
};

scope.addEventListener('message', (event) => {
  const { id } = event.data;
  void privateRoot()
    .then((root) => (root ? shredInPlace(root) : undefined))
    .then(
      () => scope.postMessage({ id, ok: true }),
      (error: unknown) => {
        console.error('At-rest key not shredded', error);
        scope.postMessage({ id, ok: false });
      },
    );
});
