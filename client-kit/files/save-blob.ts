import { OBJECT_URL_LIFETIME_MS } from '../../contract/timings.ts';

/** Hands a downloaded file to the browser's save dialog (the child app and the staff console). */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a while later: the browser reads the object URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), OBJECT_URL_LIFETIME_MS);
}
