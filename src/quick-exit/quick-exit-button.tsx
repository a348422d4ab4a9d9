import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import { DEFAULT_QUICK_EXIT_URL, QUICK_EXIT_ATTRIBUTE } from '../../contract/first-screen.ts';
import { useOptionalConfig } from '../config/runtime-config.tsx';
import { useOptionalData } from '../data/index.ts';
import { shredAtRestKey } from '../../worker/client/key-shredder.ts';
import { endLoginAsPageGoes } from '../../worker/client/quick-exit.ts';
import { BROADCAST_CHANNEL, type WorkerBroadcast } from '../../worker/client/session.ts';
import { dropPushSubscription } from '../pwa/web-push.ts';
import { SHRED_WAIT_MS, leavePage, watchTripleShift } from './quick-exit.ts';
import * as s from './quick-exit.styles.ts';
import { QUICK_EXIT_TEXTS as T } from './texts.ts';

/** The marker `fillQuickExitUrl` (contract/first-screen.ts) finds, written right before the href. */
const marker = { [QUICK_EXIT_ATTRIBUTE]: '' };

/**
 * Where the first HTML's quick exit leads (the server filled in the configured address; the entry
 * read it before hydrating, src/main.tsx): the address until the runtime config is in.
 */
export const FirstHtmlQuickExitUrl = createContext(DEFAULT_QUICK_EXIT_URL);

/**
 * 'Lämna sidan', always on screen. It is a link to the neutral page with the role of a button (as
 * GOV.UK's 'Exit this page'): in the first HTML it leaves by itself while the app's script is still
 * on its way, and once the script runs, a click or Enter or Space leaves as below (history replaced,
 * a shared device's session ended). `page`: the strip at the top of every page, the first stop after
 * the skip link. In a modal (which makes the page behind it inert) each modal carries its own:
 * `window` for the full-screen chat windows (a strip drawn at their top), `dialog` for the others
 * (pinned to the top of the screen, above the dialog). Inside a modal it comes last in the markup, so
 * the modal's first focus is never on it: Enter on a dialog that just opened must not leave.
 */
export function QuickExitButton({ placement }: { placement: 'page' | 'window' | 'dialog' }) {
  const { url, leave } = useLeave();
  const hintId = useId();
  const onClick = (event: MouseEvent) => {
    event.preventDefault();
    leave();
  };
  // A link answers Enter by itself (as a click); a button also answers Space.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== ' ') return;
    event.preventDefault();
    leave();
  };
  return (
    <div className={s.placements[placement]}>
      <a
        {...marker}
        href={url}
        role="button"
        className={s.button}
        aria-describedby={hintId}
        onClick={onClick}
        onKeyDown={onKeyDown}
      >
        {T.leave}
      </a>
      <span id={hintId} hidden>
        {T.hint}
      </span>
    </div>
  );
}

/**
 * Leaving at once, to the configured neutral page (the first HTML's until the config is in), and
 * nothing of the session left that opens or signs in (docs/security.md, "What the device keeps"):
 * - the login ends at the server: the page sends its exit handle as it goes (worker/client/
 *   quick-exit.ts), kept on disk until answered, so an exit offline is finished at the next start;
 * - the worker ends the session on the device (its wipe runs there, whatever happens to this tab);
 * - on disk the at-rest key is shredded by this tab's own shredder before the page goes (the worker
 *   may go with the tab), so nothing sealed on the device opens again;
 * - every other tab of the app leaves too: a chat left open in another tab is one tap away;
 * - the browser's push subscription is dropped, so no notice reaches the lock screen afterwards.
 * In shared-device mode nothing is kept on disk, the request included.
 */
function useLeave(): { url: string; leave: () => void } {
  const firstHtml = useContext(FirstHtmlQuickExitUrl);
  const config = useOptionalConfig();
  const url = config?.quickExitUrl ?? firstHtml;
  const data = useOptionalData();
  const api = data?.api ?? null;
  const inMemory = data?.inMemory ?? false;
  const leave = useCallback(() => {
    void dropPushSubscription();
    try {
      new BroadcastChannel(BROADCAST_CHANNEL).postMessage({ type: 'quick-exit' } satisfies WorkerBroadcast);
    } catch {
      // No channel (an old browser): this tab leaves all the same.
    }
    if (config) {
      endLoginAsPageGoes(
        {
          url: `${config.authUrl}/connect/revocation`,
          clientId: config.authClientId,
          variant: config.variant,
        },
        !inMemory,
      );
    }
    api?.quickExit().catch((error: unknown) => console.error('Sign-out on quick exit failed', error));
    leavePage(url, inMemory ? undefined : shredAtRestKey(SHRED_WAIT_MS));
  }, [api, config, inMemory, url]);
  return { url, leave };
}

/** Another tab of the app left by the quick exit: this one leaves too, for its own neutral page. */
function useLeaveWithOtherTabs(url: string): void {
  useEffect(() => {
    if (typeof BroadcastChannel !== 'function') return;
    const channel = new BroadcastChannel(BROADCAST_CHANNEL);
    channel.addEventListener('message', (event: MessageEvent<WorkerBroadcast>) => {
      if (event.data.type === 'quick-exit') leavePage(url);
    });
    return () => channel.close();
  }, [url]);
}

/**
 * The keyboard's quick exit (Shift three times within a second, anywhere), and the exit another tab
 * took. Mounted once, in the root shell. (The second look on a page the browser brings back from its
 * back-forward cache is src/main.tsx's, listened for before React.)
 */
export function QuickExitKeys() {
  const { url, leave } = useLeave();
  useLeaveWithOtherTabs(url);
  useEffect(() => watchTripleShift(window, leave), [leave]);
  return null;
}
