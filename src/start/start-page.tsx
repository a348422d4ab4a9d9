import { Suspense } from 'react';
import { useSession } from '../data/index.ts';
import { Redirect, useLocation, useSearch } from 'wouter';
import { useConfig } from '../config/runtime-config.tsx';
import { isGroupStyle } from '../config/variant.ts';
import { LoginModal } from '../login/login-modal.tsx';
import { safeRedirectPath } from '../ui-kit/current-url.ts';
import { lazyPage } from '../ui-kit/lazy-pages.ts';
import { ChildStartPage } from './child-start-page.tsx';
import { NeutralStartPage } from './neutral-start-page.tsx';

// Group support is its own variant: its start page (and meeting list) loads only there; the neutral
// start page stays on screen meanwhile.
const GroupStartPage = lazyPage(
  () => import('./group-start-page.tsx'),
  (m) => m.GroupStartPage,
  isGroupStyle,
);

/**
 * The guard sends a signed-out visitor here with promptLogin=true&redirectUrl=...: the login modal
 * opens, and once the session is signed in the user goes on to where they were heading.
 */
export function LoginPrompt({ modal }: { modal: boolean }) {
  const search = new URLSearchParams(useSearch());
  const { status } = useSession();
  const [, navigate] = useLocation();
  if (search.get('promptLogin') !== 'true' || !search.get('redirectUrl')) return null;
  // Until the worker has answered whether a session exists, no prompt: the user may be signed in.
  if (status === 'unknown') return null;
  const target = safeRedirectPath(search.get('redirectUrl'));
  if (status === 'authenticated') return <Redirect to={target} replace />;
  // The group start page already shows its login form inline.
  if (!modal) return null;
  return <LoginModal open onClose={() => navigate('/', { replace: true })} onSuccess={() => undefined} />;
}

/** Route '/' (and '/start' outside the group-support variant). */
export function StartPage() {
  const config = useConfig();
  return isGroupStyle(config) ? (
    <Suspense fallback={<NeutralStartPage />}>
      <GroupStartPage prompt={<LoginPrompt modal={false} />} />
    </Suspense>
  ) : (
    // The child app's variants and the provider's main app (Main offers everything the provider
    // runs for one child: chat, a message, the assistant and the history).
    <ChildStartPage prompt={<LoginPrompt modal />} />
  );
}
