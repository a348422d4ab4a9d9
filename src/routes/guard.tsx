import { useEffect, useRef, type ReactNode } from 'react';
import { Redirect } from 'wouter';
import { useSession } from '../data/index.ts';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { preloadPageOf } from '../ui-kit/lazy-pages.ts';
import { SHELL_TEXTS } from '../ui-kit/texts.ts';
import { useCurrentUrl } from '../ui-kit/current-url.ts';
import { loggedOutUrl } from './logged-out-url.ts';

/**
 * SPEC §5: a guarded page needs a signed-in user. A visitor who arrives signed out is sent to the
 * start page with a login prompt that brings them back; a user who is signed out while on the page
 * (logout here or in another tab, or an expired session) goes to the logged-out page.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const url = useCurrentUrl();
  const wasSignedIn = useRef(false);
  // While the session is read, the page's own code comes too, so that the page is drawn the moment
  // the session is known instead of showing a fallback first (which React keeps for a while).
  const unknown = session.status === 'unknown';
  useEffect(() => {
    if (unknown) preloadPageOf(children);
  }, [unknown, children]);

  if (session.status === 'authenticated') {
    wasSignedIn.current = true;
    return children;
  }
  if (session.status === 'unknown') return <Spinner label={SHELL_TEXTS.loading} />;
  if (wasSignedIn.current) {
    return <Redirect to={loggedOutUrl(session.signOutReason)} replace />;
  }
  return <Redirect to={`/?promptLogin=true&redirectUrl=${encodeURIComponent(url)}`} replace />;
}
