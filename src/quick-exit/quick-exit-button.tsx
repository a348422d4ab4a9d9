import { useCallback, useEffect, useId } from 'react';
import { useConfig } from '../config/runtime-config.tsx';
import { useOptionalData } from '../data/index.ts';
import { leaveAgainIfReturned, leavePage, watchTripleShift } from './quick-exit.ts';
import * as s from './quick-exit.styles.ts';
import { QUICK_EXIT_TEXTS as T } from './texts.ts';

/**
 * 'Lämna sidan', always on screen. `page`: the strip at the top of every page, the first stop after
 * the skip link. In a modal (which makes the page behind it inert) each modal carries its own:
 * `window` for the full-screen chat windows (a strip drawn at their top), `dialog` for the others
 * (pinned to the top of the screen, above the dialog). Inside a modal it comes last in the markup, so
 * the modal's first focus is never on it: Enter on a dialog that just opened must not leave.
 */
export function QuickExitButton({ placement }: { placement: 'page' | 'window' | 'dialog' }) {
  const leave = useLeave();
  const hintId = useId();
  return (
    <div className={s.placements[placement]}>
      <button type="button" className={s.button} aria-describedby={hintId} onClick={leave}>
        {T.leave}
      </button>
      <span id={hintId} hidden>
        {T.hint}
      </span>
    </div>
  );
}

/**
 * Leaving at once. In shared-device mode the session ends too, without asking: the sign-out is sent
 * to the worker before the page goes (its wipe and revocation run there, whatever happens to this tab).
 */
function useLeave(): () => void {
  const { quickExitUrl } = useConfig();
  const data = useOptionalData();
  const api = data?.inMemory ? data.api : null;
  return useCallback(() => {
    if (api)
      api.logout('user').catch((error: unknown) => console.error('Sign-out on quick exit failed', error));
    leavePage(quickExitUrl);
  }, [api, quickExitUrl]);
}

/**
 * The keyboard's quick exit (Shift three times within a second, anywhere) and the second look on a
 * page the browser brings back from its back-forward cache. Mounted once, in the root shell.
 */
export function QuickExitKeys() {
  const leave = useLeave();
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
