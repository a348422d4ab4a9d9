import { useCallback } from 'react';
import { useStaffApi } from '../api/staff-api.ts';

/** Downloads a staff API file (through the StaffApi, with the session's token) and saves it under its name. */
export function useDownload() {
  const api = useStaffApi();
  return useCallback(
    async (path: string, fileName: string) => {
      const url = URL.createObjectURL(await api.download(path));
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
    [api],
  );
}
