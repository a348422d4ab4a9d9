import { useHubStatus } from '../api/staff-hub.ts';
import { HUB_TEXTS } from '../api/texts.ts';
import { noticeText } from '../ui/styles.ts';

/** Shown while the real-time connection is down (SPEC §8 connection trouble). */
export function HubStatusNotice() {
  const status = useHubStatus();
  if (status !== 'reconnecting' && status !== 'disconnected') return null;
  return (
    <p className={noticeText} role="status">
      {HUB_TEXTS.unstable}
    </p>
  );
}
