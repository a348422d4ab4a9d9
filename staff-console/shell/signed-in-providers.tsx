import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useRuntimeConfig } from '../config/runtime-config.ts';
import { createStaffApi, StaffApiContext } from '../api/staff-api.ts';
import { HubClient } from '../api/hub-client.ts';
import { StaffHubContext } from '../api/staff-hub.ts';
import type { TokenKeeper } from '../session/token-keeper.ts';

/** The staff API and the hub connection of one signed-in session; both end with it. */
export function SignedInProviders({
  keeper,
  onUnauthorized,
  children,
}: {
  keeper: TokenKeeper;
  onUnauthorized(): void;
  children: ReactNode;
}) {
  const config = useRuntimeConfig();
  const api = useMemo(
    () =>
      createStaffApi({
        apiUrl: config.apiUrl,
        variant: config.variant,
        getAccessToken: (force) => keeper.getAccessToken(force),
        onUnauthorized,
      }),
    [config.apiUrl, config.variant, keeper, onUnauthorized],
  );
  const [hub, setHub] = useState<HubClient | null>(null);
  useEffect(() => {
    const client = new HubClient(config.signalHubUrl, () => keeper.getAccessToken());
    client.start();
    setHub(client);
    return () => {
      void client.stop();
    };
  }, [config.signalHubUrl, keeper]);
  if (!hub) return null;
  return (
    <StaffApiContext.Provider value={api}>
      <StaffHubContext.Provider value={hub}>{children}</StaffHubContext.Provider>
    </StaffApiContext.Provider>
  );
}
