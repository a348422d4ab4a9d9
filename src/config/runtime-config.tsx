import { createContext, startTransition, useContext, useEffect, useState, type ReactNode } from 'react';
import type { RuntimeConfig } from '../../contract/config.ts';
import { PROVIDER } from '../../contract/first-screen.ts';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { BootError } from './boot-error.tsx';
import { fetchConfig } from './fetch-config.ts';
import { CONFIG_TEXTS } from './texts.ts';

/** The runtime config of this deployment; null on the first screen, before it has arrived. */
export const ConfigContext = createContext<RuntimeConfig | null>(null);

/** The runtime config; only usable where the config is known (below the first screen's shell). */
export function useConfig(): RuntimeConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useConfig before the runtime config has arrived');
  return config;
}

/** The runtime config, or null while the first screen waits for it (the shell's own parts). */
export function useOptionalConfig(): RuntimeConfig | null {
  return useContext(ConfigContext);
}

/**
 * The provider's name and site: the config's, and on the first screen, before it is in, those of
 * this deployment (the same the config names).
 */
export function useProvider(): { name: string; url: string } {
  const config = useOptionalConfig();
  return config ? { name: config.providerName, url: config.providerUrl } : PROVIDER;
}

/**
 * Loads `/config.json` once, after the first render (the prerendered first screen is drawn without
 * it). `load` is a fetch already under way (main.tsx starts it before React); without it, one starts
 * here.
 */
export function useRuntimeConfig(load?: Promise<RuntimeConfig>): {
  config: RuntimeConfig | null;
  failed: boolean;
} {
  const [config, setConfig] = useState<RuntimeConfig | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    (load ?? fetchConfig())
      .then((c) => current && startTransition(() => setConfig(c)))
      .catch((error: unknown) => {
        console.error('Bootstrap error', error);
        if (current) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, [load]);
  return { config, failed };
}

/**
 * Renders its children under the runtime config once it is loaded (a page on its own, as the
 * component tests render one; the app itself draws its first screen before, see app.tsx).
 */
export function RuntimeConfigBoot({
  children,
  load,
}: {
  children: ReactNode;
  load?: Promise<RuntimeConfig>;
}) {
  const { config, failed } = useRuntimeConfig(load);
  if (failed) return <BootError />;
  if (!config) return <Spinner label={CONFIG_TEXTS.loading} fullPage />;
  return <ConfigContext value={config}>{children}</ConfigContext>;
}
