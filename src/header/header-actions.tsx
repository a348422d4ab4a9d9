import { Suspense, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { assistantState, toggleAssistant } from '../assistant/assistant-state.ts';
import { useConfig } from '../config/runtime-config.tsx';
import { useSession } from '../data/index.ts';
import { LoginModal } from '../login/login-modal.tsx';
import { lazyPage } from '../ui-kit/lazy-pages.ts';
import { AssistantIcon, LoginIcon } from '../ui-kit/icons.tsx';
import { iconButton } from '../styles/controls.ts';
import { HEADER_TEXTS } from './texts.ts';
import * as s from './page-header.styles.ts';

// A signed-in user's buttons read the database: they come with the data layer (the app chunk).
const SignedInActions = lazyPage(
  () => import('./signed-in-actions.tsx'),
  (m) => m.SignedInActions,
  undefined,
  { withDataLayer: true },
);

/** The header's buttons: signed-in users get notifications, settings and my pages (SPEC §6). */
export function HeaderActions() {
  useSignals();
  const { status } = useSession();
  const [loginOpen, setLoginOpen] = useState(false);
  const config = useConfig();
  const assistant = assistantState.value;

  // The state cookie is per host, not per app: only a variant with the assistant shows it.
  const assistantToggle = config.features.assistant && assistant !== 'Inactive' && (
    <button
      type="button"
      className={iconButton}
      aria-label={assistant === 'Active' ? HEADER_TEXTS.assistantMinimize : HEADER_TEXTS.assistantOpen}
      aria-pressed={assistant === 'Active'}
      onClick={toggleAssistant}
    >
      <AssistantIcon />
    </button>
  );

  return (
    <div className={s.actions}>
      {status === 'authenticated' ? (
        <Suspense fallback={assistantToggle}>
          <SignedInActions assistant={assistantToggle} />
        </Suspense>
      ) : (
        assistantToggle
      )}
      {/* Until the worker has answered whether a session exists, neither: no signed-out flash. */}
      {status === 'anonymous' && (
        <button type="button" className={s.textButton} onClick={() => setLoginOpen(true)}>
          <LoginIcon />
          <span>{HEADER_TEXTS.login}</span>
        </button>
      )}
      <LoginModal open={loginOpen} onClose={() => setLoginOpen(false)} />
    </div>
  );
}
