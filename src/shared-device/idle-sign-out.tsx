import { useEffect, useRef, useState } from 'react';
import type { WorkerCommands } from '../../worker/client/api.ts';
import { useOptionalData, useSession } from '../data/index.ts';
import { ConfirmationDialog } from '../dialogs/confirmation-dialog.tsx';
import { useLogout } from '../header/use-logout.ts';
import { SHARED_DEVICE_TEXTS as T } from './texts.ts';

/** Shared-device mode ends a session after this long without use in any tab... */
export const IDLE_LIMIT_MS = 15 * 60_000;
/** ...and asks first, this long after the last use. */
export const IDLE_WARNING_MS = 13 * 60_000;
/** How often each tab looks at the time (the clock, not the count of checks, decides). */
const CHECK_MS = 5_000;
/** Use in one tab counts in all: each tab tells the others, at most this often. */
const TELL_OTHERS_MS = 10_000;
const ACTIVITY_CHANNEL = 'portal-shared-device-activity';
const USE_EVENTS = ['pointerdown', 'keydown', 'touchstart', 'wheel'] as const;

/**
 * Shared-device mode: a phone put down while signed in does not stay signed in. After 13
 * minutes without use in any tab every tab asks whether to go on; after 15 the session ends (the
 * logged-out page says it expired). Other modes keep SPEC's session rules.
 */
export function SharedDeviceIdleSignOut() {
  const data = useOptionalData();
  const { status } = useSession();
  if (!data?.inMemory || status !== 'authenticated') return null;
  return <IdleWatch api={data.api} />;
}

function IdleWatch({ api }: { api: WorkerCommands }) {
  const [warning, setWarning] = useState(false);
  const lastUse = useRef(Date.now());
  const warned = useRef(false);
  const channel = useRef<BroadcastChannel | null>(null);
  const lastTold = useRef(0);
  const logOut = useLogout();

  const used = (now: number) => {
    lastUse.current = Math.max(lastUse.current, now);
    if (now - lastTold.current < TELL_OTHERS_MS) return;
    lastTold.current = now;
    channel.current?.postMessage(now);
  };

  useEffect(() => {
    const others = new BroadcastChannel(ACTIVITY_CHANNEL);
    channel.current = others;
    others.addEventListener('message', (event: MessageEvent<number>) => {
      lastUse.current = Math.max(lastUse.current, event.data);
      warned.current = false;
      setWarning(false);
    });
    // While the question is open only its answer counts as use: a stray key must not dismiss it.
    const onUse = () => {
      if (!warned.current) used(Date.now());
    };
    for (const type of USE_EVENTS) window.addEventListener(type, onUse, { capture: true, passive: true });
    const check = () => {
      const idle = Date.now() - lastUse.current;
      if (idle >= IDLE_LIMIT_MS) {
        api.logout('session_expired').catch((error: unknown) => console.error('Idle sign-out failed', error));
        return;
      }
      warned.current = idle >= IDLE_WARNING_MS;
      setWarning(warned.current);
    };
    const timer = setInterval(check, CHECK_MS);
    return () => {
      clearInterval(timer);
      for (const type of USE_EVENTS) window.removeEventListener(type, onUse, { capture: true });
      others.close();
      channel.current = null;
    };
    // `used` reads and writes refs only.
  }, [api]);

  const answer = (goOn: boolean) => {
    if (!goOn) {
      void logOut();
      return;
    }
    warned.current = false;
    lastTold.current = 0;
    used(Date.now());
  };

  return (
    <ConfirmationDialog
      open={warning}
      onClose={() => setWarning(false)}
      onResult={answer}
      title={T.warningTitle}
      text={T.warningText}
      yes={T.continue}
      no={T.logOut}
      staticBackdrop
    />
  );
}
