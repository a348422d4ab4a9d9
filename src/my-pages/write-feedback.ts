import { formatDateAndClockTime } from '../../client-kit/time/format-time.ts';
import { failure, type WriteResult } from '../../worker/client/result.ts';
import { showToast } from '../dialogs/toast-store.ts';
import { MY_PAGES_TEXTS as T } from './texts.ts';

/** A failed mark-as-read or delete says why in a toast; success shows in the list itself. */
export function reportWrite(result: WriteResult): void {
  if (result.ok) return;
  showToast(result.code === 'offline' ? T.writeOffline : T.writeFailed, { kind: 'error' });
}

/** Runs a write, turning a broken worker connection into 'failed' too. */
export async function runWrite(write: () => Promise<WriteResult>): Promise<void> {
  reportWrite(await write().catch((): WriteResult => failure('failed')));
}

export const when = (iso: string) => formatDateAndClockTime(iso);
