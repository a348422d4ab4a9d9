import { createContext, useContext, useEffect, useRef, useSyncExternalStore } from 'react';
import type { HubClient, HubStatus } from './hub-client.ts';

export const StaffHubContext = createContext<HubClient | null>(null);

function useHubClient(): HubClient {
  const hub = useContext(StaffHubContext);
  if (!hub) throw new Error('staff hub hooks outside the signed-in staff console');
  return hub;
}

/** Calls `handler` for every hub event `eventName` (SendEvent(eventName, data, entityKey)). */
export function useHubEvent(eventName: string, handler: (data: unknown, entityKey: string) => void) {
  const hub = useHubClient();
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => hub.on(eventName, (data, key) => latest.current(data, key)), [hub, eventName]);
}

/** Subscribes to an entity (`Conversation:{id}`, `Meeting:{id}`) while the component shows; null: none. */
export function useEntitySubscription(entityKey: string | null) {
  const hub = useHubClient();
  useEffect(() => (entityKey ? hub.subscribe(entityKey) : undefined), [hub, entityKey]);
}

/** Calls `handler` after the connection came back (events may have been missed meanwhile). */
export function useHubReconnected(handler: () => void) {
  const hub = useHubClient();
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => hub.onReconnected(() => latest.current()), [hub]);
}

/** The connection's state, for a notice while it is down. */
export function useHubStatus(): HubStatus {
  const hub = useHubClient();
  return useSyncExternalStore(
    (onChange) => hub.onStatus(onChange),
    () => hub.status,
  );
}
