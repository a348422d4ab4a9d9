import { RuntimeConfigBoot } from './config/runtime-config.tsx';
import { DataProvider } from './data/index.ts';
import { AppRoutes } from './routes/app-routes.tsx';
import { RootShell } from './shell/root-shell.tsx';

/** Boot order: the runtime config first (it decides the variant), then the worker and the shell. */
export function App() {
  return (
    <RuntimeConfigBoot>
      <DataProvider>
        <RootShell>
          <AppRoutes />
        </RootShell>
      </DataProvider>
    </RuntimeConfigBoot>
  );
}
