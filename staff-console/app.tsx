import { useEffect, useState } from 'react';
import { Router } from 'wouter';
import type { RuntimeConfig } from '../contract/config.ts';
import { loadRuntimeConfig, RuntimeConfigContext } from './config/runtime-config.ts';
import { StaffSessionProvider, useSessionState } from './session/staff-session.tsx';
import { SignInForm } from './session/sign-in-form.tsx';
import { SESSION_TEXTS } from './session/texts.ts';
import { ConsoleShell } from './shell/console-shell.tsx';
import { SignedInProviders } from './shell/signed-in-providers.tsx';
import { Spinner } from '../client-kit/spinner/spinner.tsx';
import { SHELL_TEXTS } from './shell/texts.ts';
import { errorText, globalStyles } from './ui/styles.ts';

/** The console lives under /personal; its routes are relative to that. */
export const CONSOLE_BASE = '/personal';

export function StaffConsoleApp() {
  const [config, setConfig] = useState<RuntimeConfig | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    loadRuntimeConfig().then(setConfig, (error: unknown) => {
      console.error('staff console: config.json', error);
      setFailed(true);
    });
  }, []);
  if (failed) {
    return (
      <main className={globalStyles}>
        <p className={errorText} role="alert">
          {SHELL_TEXTS.configFailed}
        </p>
      </main>
    );
  }
  if (!config) return <Spinner label={SHELL_TEXTS.loadingConfig} />;
  return (
    <RuntimeConfigContext.Provider value={config}>
      <StaffSessionProvider>
        <Router base={CONSOLE_BASE}>
          <SessionGate />
        </Router>
      </StaffSessionProvider>
    </RuntimeConfigContext.Provider>
  );
}

function SessionGate() {
  const { state, auth, expire } = useSessionState();
  if (state.status === 'restoring') return <Spinner label={SESSION_TEXTS.restoring} />;
  if (state.status === 'signedOut') return <SignInForm notice={state.notice} />;
  return (
    <SignedInProviders auth={auth} onUnauthorized={expire}>
      <ConsoleShell />
    </SignedInProviders>
  );
}
