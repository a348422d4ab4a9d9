import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../data/index.ts';
import { notice } from './chat-window.styles.ts';
import { SERVICE_NOT_ANSWERING_TEXT } from '../errors/texts.ts';
import { connectionNotice } from './connection-trouble.ts';
import { CHAT_TEXTS } from './texts.ts';

/** A short drop (a reconnect that succeeds at once) should not flash a warning. */
export const TROUBLE_GRACE_MS = 3000;

/** The page's own view of the network (a worker does not always hear of it). */
function useBrowserOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return online;
}

/** The chat window's notice while the connection is unsteady. */
export function ConnectionNotice() {
  const db = useDb();
  const runtime = useLiveQuery(() => db.runtime.get('current'), [db]);
  const browserOnline = useBrowserOnline();
  const trouble = connectionNotice({
    online: browserOnline && (runtime?.online ?? true),
    hubState: runtime?.hubState ?? 'Connecting',
    serverTrouble: runtime?.serverTrouble ?? false,
  });
  const [shown, setShown] = useState<typeof trouble>(null);

  useEffect(() => {
    if (!trouble) {
      setShown(null);
      return;
    }
    const timer = setTimeout(() => setShown(trouble), TROUBLE_GRACE_MS);
    return () => clearTimeout(timer);
  }, [trouble]);

  if (!shown) return null;
  return (
    <p className={notice} role="status">
      {shown === 'server' ? SERVICE_NOT_ANSWERING_TEXT : CHAT_TEXTS.connectionTrouble}
    </p>
  );
}
