import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { RuntimeConfig } from '../../contract/config.ts';
import { BootError } from './boot-error.tsx';
import { BootScreen } from './boot-screen.tsx';
import { fetchConfig } from './fetch-config.ts';

const ConfigContext = createContext<RuntimeConfig | null>(null);

/** The runtime config of this deployment; only usable below `<RuntimeConfigBoot>`. */
export function useConfig(): RuntimeConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useConfig outside RuntimeConfigBoot');
  return config;
}

/**
 * Loads `/config.json` once at boot and renders its children only when the config is known. `load`
 * is a fetch already under way (main.tsx starts it beside the app's code); without it, one starts here.
 */
export function RuntimeConfigBoot({
  children,
  load,
}: {
  children: ReactNode;
  load?: Promise<RuntimeConfig>;
}) {
  const [config, setConfig] = useState<RuntimeConfig | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    (load ?? fetchConfig())
      .then((c) => current && setConfig(c))
      .catch((error: unknown) => {
        console.error('Bootstrap error', error);
        if (current) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, [load]);

  if (failed) return <BootError />;
  if (!config) return <BootScreen />;
  return <ConfigContext.Provider value={config}>{children}</ConfigContext.Provider>;
}
