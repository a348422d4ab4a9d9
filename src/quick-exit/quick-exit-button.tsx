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
import { destroyAtRestKey } from '../../worker/client/at-rest-key.ts';
import { dropPushSubscription } from '../pwa/web-push.ts';
import { leaveAgainIfReturned, leavePage, watchTripleShift } from './quick-exit.ts';
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
 * nothing of the session left readable on the device: in shared-device mode the sign-out is sent to
 * the worker before the page goes (its wipe and revocation run there, whatever happens to this tab);
 * on disk the at-rest key is destroyed from here, since the worker may go with this tab (whoever
 * opens the app next finds it signed out, and its stored rows sealed with a key that is gone).
 * Either way the session is over here, so the browser's push subscription is dropped too, started
 * before the page goes: no push notice reaches the lock screen afterwards (in shared-device mode the
 * worker's sign-out also deletes the server's copy; on disk its pushes then find no subscription).
 */
function useLeave(): { url: string; leave: () => void } {
  const firstHtml = useContext(FirstHtmlQuickExitUrl);
  const url = useOptionalConfig()?.quickExitUrl ?? firstHtml;
  const data = useOptionalData();
  const api = data?.inMemory ? data.api : null;
  const leave = useCallback(() => {
    void dropPushSubscription();
    if (api)
      api.logout('user').catch((error: unknown) => console.error('Sign-out on quick exit failed', error));
    else destroyAtRestKey();
    leavePage(url);
  }, [api, url]);
  return { url, leave };
}

/**
 * The keyboard's quick exit (Shift three times within a second, anywhere) and the second look on a
 * page the browser brings back from its back-forward cache. Mounted once, in the root shell.
 */
export function QuickExitKeys() {
  const { leave } = useLeave();
  useEffect(() => watchTripleShift(window, leave), [leave]);
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) leaveAgainIfReturned(true);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);
  return null;
}
