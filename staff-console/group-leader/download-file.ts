import { useCallback } from 'react';
import { saveBlob } from '../../client-kit/files/save-blob.ts';
import { useStaffApi } from '../api/staff-api.ts';

/** Downloads a staff API file (through the StaffApi, with the session's token) and saves it under its name. */
export function useDownload() {
  const api = useStaffApi();
  return useCallback(
    async (path: string, fileName: string) => saveBlob(await api.download(path), fileName),
    [api],
  );
}
