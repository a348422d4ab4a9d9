import { Router } from 'wouter';
import type { RuntimeConfig } from '../contract/config.ts';
import { DEFAULT_QUICK_EXIT_URL } from '../contract/first-screen.ts';
import { BootError } from './config/boot-error.tsx';
import { ConfigContext, useOptionalConfig, useRuntimeConfig } from './config/runtime-config.tsx';
import { DataProvider, useData } from './data/index.ts';
import { AppRoutes } from './routes/app-routes.tsx';
import { FirstHtmlQuickExitUrl } from './quick-exit/quick-exit-button.tsx';
import { RootShell } from './shell/root-shell.tsx';
import { NeutralStartPage } from './start/neutral-start-page.tsx';

/**
 * The child app. Its first render is the first HTML's (src/prerender.tsx renders this at build
 * time and the entry hydrates it): the shell with the neutral start page, whatever the route,
 * since neither the runtime config nor the session is known yet. Then the config (it decides the
 * variant) and the session arrive, and the routed page takes the neutral page's place.
 *
 * `config` is the config fetch the entry started before React; `quickExitUrl` is where the first
 * HTML's quick exit leads (the server filled it in); `ssrPath` is the prerender's route.
 */
export function App({
  config: load,
  quickExitUrl = DEFAULT_QUICK_EXIT_URL,
  ssrPath,
}: {
  config?: Promise<RuntimeConfig>;
  quickExitUrl?: string;
  ssrPath?: string;
}) {
  const { config, failed } = useRuntimeConfig(load);
  return (
    <Router ssrPath={ssrPath}>
      <FirstHtmlQuickExitUrl value={quickExitUrl}>
        <ConfigContext value={config}>
          <DataProvider>
            <RootShell>
              <Page configFailed={failed} />
            </RootShell>
          </DataProvider>
        </ConfigContext>
      </FirstHtmlQuickExitUrl>
    </Router>
  );
}

function Page({ configFailed }: { configFailed: boolean }) {
  const config = useOptionalConfig();
  const { failed } = useData();
  if (configFailed || failed) return <BootError />;
  return config ? <AppRoutes /> : <NeutralStartPage />;
}
