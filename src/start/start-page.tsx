import { Redirect, useLocation, useSearch } from 'wouter';
import { useConfig } from '../config/runtime-config.tsx';
import { isGroupStyle } from '../config/variant.ts';
import { useProfile, useSession } from '../data/index.ts';
import { LoginModal } from '../login/login-modal.tsx';
import { safeRedirectPath } from '../routes/current-url.ts';
import { PageLayout } from '../shell/page-layout.tsx';
import { ChildStartPage } from './child-start-page.tsx';
import { GroupStartPage } from './group-start-page.tsx';
import { START_TEXTS } from './texts.ts';

/**
 * The guard sends a signed-out visitor here with promptLogin=true&redirectUrl=...: the login modal
 * opens, and once the session is signed in the user goes on to where they were heading.
 */
export function LoginPrompt({ modal }: { modal: boolean }) {
  const search = new URLSearchParams(useSearch());
  const { status } = useSession();
  const [, navigate] = useLocation();
  if (search.get('promptLogin') !== 'true' || !search.get('redirectUrl')) return null;
  const target = safeRedirectPath(search.get('redirectUrl'));
  if (status === 'authenticated') return <Redirect to={target} replace />;
  // The group start page already shows its login form inline.
  if (!modal) return null;
  return <LoginModal open onClose={() => navigate('/', { replace: true })} onSuccess={() => undefined} />;
}

function MainStartPage() {
  const config = useConfig();
  const { status } = useSession();
  const profile = useProfile();
  return (
    <PageLayout>
      <h1>{config.providerName}</h1>
      <p>{START_TEXTS.intro}</p>
      {status === 'authenticated' && profile && (
        <p>
          {START_TEXTS.welcomeBack}, {profile.username}!
        </p>
      )}
      <LoginPrompt modal />
    </PageLayout>
  );
}

/** Route '/' (and '/start' outside the group-support variant). */
export function StartPage() {
  const config = useConfig();
  return isGroupStyle(config) ? (
    <GroupStartPage prompt={<LoginPrompt modal={false} />} />
  ) : config.variant === 'Main' ? (
    <MainStartPage />
  ) : (
    <ChildStartPage prompt={<LoginPrompt modal />} />
  );
}
