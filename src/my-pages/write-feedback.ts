import { formatDateAndClockTime } from '../../client-kit/time/format-time.ts';
import type { AccountWriteResult } from '../../worker/client/account.ts';
import { showToast } from '../dialogs/toast-store.ts';
import { MY_PAGES_TEXTS as T } from './texts.ts';

/** A failed mark-as-read or delete says why in a toast; success shows in the list itself. */
export function reportWrite(result: AccountWriteResult): void {
  if (result === 'ok') return;
  showToast(result === 'offline' ? T.writeOffline : T.writeFailed, { kind: 'error' });
}

/** Runs a write, turning a broken worker connection into 'failed' too. */
export async function runWrite(write: () => Promise<AccountWriteResult>): Promise<void> {
  reportWrite(await write().catch((): AccountWriteResult => 'failed'));
}

export const when = (iso: string) => formatDateAndClockTime(iso);
