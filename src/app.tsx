import { useEffect, useState } from 'react';
import type { RuntimeConfig } from '../contract/config.ts';
import { START_TEXTS } from './texts.ts';
import './styles/theme.ts';

/** The first screen: reads the runtime config and shows the provider. The full shell follows in step 2. */
export function App() {
  const [config, setConfig] = useState<RuntimeConfig | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    fetch('/config.json')
      .then((r) =>
        r.ok ? (r.json() as Promise<RuntimeConfig>) : Promise.reject(new Error(String(r.status))),
      )
      .then(setConfig)
      .catch(() => setFailed(true));
  }, []);

  if (failed) return <main role="alert">{START_TEXTS.configError}</main>;
  if (!config) return <main aria-busy="true">{START_TEXTS.loading}</main>;
  return (
    <>
      <main>
        <h1>{config.providerName}</h1>
      </main>
      <footer>
        <a href={config.providerUrl} target="_blank" rel="noreferrer">
          {START_TEXTS.backTo} {config.providerName}
        </a>
        <p>© 2024 {config.providerName}</p>
      </footer>
    </>
  );
}
