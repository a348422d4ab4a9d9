import { useCallback } from 'react';
import { VARIANT_HEADER } from '../../contract/variant.ts';
import { useRuntimeConfig } from '../config/runtime-config.ts';
import { useSessionState } from '../session/staff-session.tsx';

/**
 * Downloads a staff API file with the session's token and saves it under its name. The StaffApi
 * answers JSON or text only, so binary files are fetched here.
 */
export function useDownload() {
  const { state } = useSessionState();
  const config = useRuntimeConfig();
  return useCallback(
    async (path: string, fileName: string) => {
      if (state.status !== 'signedIn') throw new Error('not signed in');
      const token = await state.keeper.getAccessToken();
      const res = await fetch(`${config.apiUrl.replace(/\/$/, '')}/staff${path}`, {
        headers: { Authorization: `Bearer ${token}`, [VARIANT_HEADER]: config.variant },
      });
      if (!res.ok) throw new Error(`download answered ${res.status}`);
      const url = URL.createObjectURL(await res.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
    [state, config.apiUrl, config.variant],
  );
}
