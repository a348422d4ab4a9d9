import { Suspense, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { AssistantLauncher } from '../assistant/assistant-launcher.tsx';
import { useConfig } from '../config/runtime-config.tsx';
import { registerStyle } from '../config/variant.ts';
import { useSession } from '../data/index.ts';
import { LoginModal } from '../login/login-modal.tsx';
import { EmergencyLink } from '../ui-kit/emergency-link.tsx';
import { lazyPage } from '../ui-kit/lazy-pages.ts';
import { PageLayout } from '../header/page-layout.tsx';
import { primaryButton, secondaryButton } from '../styles/controls.ts';
import { NeutralStartPage } from './neutral-start-page.tsx';
import * as s from './child-start-page.styles.ts';
import { START_TEXTS as T } from './texts.ts';

// A signed-in child's start page reads the database: it comes with the data layer (the app chunk).
const SignedInStart = lazyPage(
  () => import('./signed-in-start.tsx'),
  (m) => m.SignedInStart,
  undefined,
  { withDataLayer: true },
);

// The Peers board is only in the Peers variant: its code comes only there.
const PeerBoardSignedOut = lazyPage(
  () => import('../peers/peer-board.tsx'),
  (m) => m.PeerBoardSignedOut,
  (config) => config.features.peers,
);

/**
 * Route '/' and '/start' in the child app. Signed out, it is drawn with the first screen's code
 * alone (no data layer): 'Logga in' and 'Skapa konto'. Until the session is known: the neutral
 * start page; signed in: SignedInStart.
 */
export function ChildStartPage({ prompt }: { prompt: ReactNode }) {
  const config = useConfig();
  const { status } = useSession();
  const [loginOpen, setLoginOpen] = useState(false);

  if (status === 'unknown') return <NeutralStartPage />;
  if (status === 'authenticated') {
    return (
      <Suspense fallback={<NeutralStartPage />}>
        <SignedInStart prompt={prompt} />
      </Suspense>
    );
  }

  return (
    <PageLayout>
      <h1>{config.providerName}</h1>
      <EmergencyLink />
      <p>{T.signedOutText}</p>
      <AssistantLauncher />
      <div className={s.buttons}>
        <button type="button" className={primaryButton} onClick={() => setLoginOpen(true)}>
          {T.login}
        </button>
        <Link className={secondaryButton} href={`/skapa-konto?style=${registerStyle(config)}`}>
          {T.createAccount}
        </Link>
      </div>
      {config.features.peers && (
        <Suspense fallback={null}>
          <PeerBoardSignedOut
            onLogin={() => setLoginOpen(true)}
            registerHref={`/skapa-konto?style=${registerStyle(config)}`}
          />
        </Suspense>
      )}
      <LoginModal open={loginOpen} onClose={() => setLoginOpen(false)} />
      {prompt}
    </PageLayout>
  );
}
