import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useRuntimeConfig } from '../config/runtime-config.ts';
import { createStaffApi, StaffApiContext } from '../api/staff-api.ts';
import { HubClient } from '../api/hub-client.ts';
import { StaffHubContext } from '../api/staff-hub.ts';
import type { StaffAuth } from '../session/staff-auth.ts';

/** The staff API and the hub connection of one signed-in session; both end with it. */
export function SignedInProviders({
  auth,
  onUnauthorized,
  children,
}: {
  auth: StaffAuth;
  onUnauthorized(): void;
  children: ReactNode;
}) {
  const config = useRuntimeConfig();
  const api = useMemo(
    () =>
      createStaffApi({
        apiUrl: config.apiUrl,
        variant: config.variant,
        getAccessToken: (refused) => auth.accessToken(refused),
        onUnauthorized,
      }),
    [config.apiUrl, config.variant, auth, onUnauthorized],
  );
  const [hub, setHub] = useState<HubClient | null>(null);
  useEffect(() => {
    const client = new HubClient(config.signalHubUrl, () => auth.accessToken());
    client.start();
    setHub(client);
    return () => {
      void client.stop();
    };
  }, [config.signalHubUrl, auth]);
  if (!hub) return null;
  return (
    <StaffApiContext.Provider value={api}>
      <StaffHubContext.Provider value={hub}>{children}</StaffHubContext.Provider>
    </StaffApiContext.Provider>
  );
}
