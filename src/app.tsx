import type { RuntimeConfig } from '../contract/config.ts';
import { RuntimeConfigBoot } from './config/runtime-config.tsx';
import { DataProvider } from './data/index.ts';
import { AppRoutes } from './routes/app-routes.tsx';
import { RootShell } from './shell/root-shell.tsx';

/**
 * Boot order: the runtime config first (it decides the variant), then the worker and the shell.
 * `config` is the config fetch main.tsx started while this module was still loading.
 */
export function App({ config }: { config?: Promise<RuntimeConfig> }) {
  return (
    <RuntimeConfigBoot load={config}>
      <DataProvider>
        <RootShell>
          <AppRoutes />
        </RootShell>
      </DataProvider>
    </RuntimeConfigBoot>
  );
}
