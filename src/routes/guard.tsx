import { useRef, type ReactNode } from 'react';
import { Redirect } from 'wouter';
import { useSession } from '../data/index.ts';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { SHELL_TEXTS } from '../shell/texts.ts';
import { useCurrentUrl } from './current-url.ts';
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
