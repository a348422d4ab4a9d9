import { createContext, use, useEffect, useState, type ReactNode } from 'react';
import type { RuntimeConfig } from '../../contract/config.ts';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { CONFIG_TEXTS } from './texts.ts';
import { bootError } from './runtime-config.styles.ts';
import { primaryButton } from '../styles/controls.ts';

const ConfigContext = createContext<RuntimeConfig | null>(null);

/** The runtime config of this deployment; only usable below `<RuntimeConfigBoot>`. */
export function useConfig(): RuntimeConfig {
  const config = use(ConfigContext);
  if (!config) throw new Error('useConfig outside RuntimeConfigBoot');
  return config;
}

async function fetchConfig(): Promise<RuntimeConfig> {
  // The only network call the UI makes itself; everything else goes through the worker.
  const response = await fetch('/config.json', { cache: 'no-cache' });
  if (!response.ok) throw new Error(`GET /config.json answered ${response.status}`);
  return (await response.json()) as RuntimeConfig;
}

/** Loads `/config.json` once at boot and renders its children only when the config is known. */
export function RuntimeConfigBoot({ children }: { children: ReactNode }) {
  const [config, setConfig] = useState<RuntimeConfig | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    fetchConfig()
      .then((c) => current && setConfig(c))
      .catch((error: unknown) => {
        console.error('Bootstrap error', error);
        if (current) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, []);

  if (failed) {
    return (
      <main className={bootError}>
        <p role="alert">{CONFIG_TEXTS.loadError}</p>
        <button type="button" className={primaryButton} onClick={() => window.location.reload()}>
          {CONFIG_TEXTS.reload}
        </button>
      </main>
    );
  }
  if (!config) return <Spinner label={CONFIG_TEXTS.loading} fullPage />;
  return <ConfigContext value={config}>{children}</ConfigContext>;
}
