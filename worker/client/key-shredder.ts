import { trustedScriptUrl } from '../../client-kit/security/trusted-types-policy.ts';
// The tab's shredder, a dedicated worker of its own (Vite bundles it; see its entry for why).
import shredderUrl from '../key-file/shredder-entry.ts?worker&url';
import { privateKeyFile, type KeyFile, type ShredAnswer, type ShredRequest } from '../base/at-rest-key.ts';

/** How long a shred may take before its caller goes on without an answer (a worker that hangs). */
export const SHRED_TIMEOUT_MS = 3_000;

let shredder: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, (ok: boolean) => void>();

function started(): Worker | null {
  if (shredder) return shredder;
  if (typeof Worker !== 'function') return null;
  try {
    shredder = new Worker(trustedScriptUrl(shredderUrl), { type: 'module', name: 'portal-key-shredder' });
  } catch (error) {
    console.error('Key shredder not started', error);
    return null;
  }
  shredder.addEventListener('message', (event: MessageEvent<ShredAnswer>) => {
    waiting.get(event.data.id)?.(event.data.ok);
    waiting.delete(event.data.id);
  });
  shredder.addEventListener('error', () => {
    for (const answer of waiting.values()) answer(false);
    waiting.clear();
    shredder = null;
  });
  return shredder;
}

/** How long a prepared shredder may wait for the page to be idle (a first screen goes first). */
const PREPARE_WITHIN_MS = 2_000;
let preparing = false;

/**
 * Starts this tab's shredder ahead of need (the app is signed in), so that a quick exit only posts a
 * message and the shred is done within milliseconds, before the page goes. It waits for the page to
 * be idle: a worker's start costs a cold start's first screen some of its two cores, and an exit in
 * the first moments starts the shredder itself (shredAtRestKey), a few tens of ms later.
 */
export function prepareKeyShredder(): void {
  if (shredder || preparing) return;
  preparing = true;
  const start = () => {
    preparing = false;
    started();
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(start, { timeout: PREPARE_WITHIN_MS });
  else setTimeout(start, 0);
}

/**
 * Shreds the at-rest key in place (worker/key-file/shred-in-place.ts); answers whether it was done
 * (false after `timeoutMs` without an answer, or where no shredder can run).
 */
export function shredAtRestKey(timeoutMs = SHRED_TIMEOUT_MS): Promise<boolean> {
  const worker = started();
  if (!worker) return Promise.resolve(false);
  const id = nextId++;
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      resolve(false);
    }, timeoutMs);
    waiting.set(id, (ok) => {
      clearTimeout(timer);
      resolve(ok);
    });
    worker.postMessage({ id } satisfies ShredRequest);
  });
}

/**
 * The key file as a tab uses it: read to open rows, shredded through its shredder. A tab never makes
 * one (only the data worker writes rows), so a row written from a page by mistake fails rather than
 * leave a key nobody shreds.
 */
export function tabKeyFile(): KeyFile {
  const file = privateKeyFile(async () => {
    if (!(await shredAtRestKey())) throw new Error('At-rest key not shredded');
  });
  return {
    ...file,
    create: () => Promise.reject(new Error('A tab makes no at-rest key: the data worker does')),
  };
}
