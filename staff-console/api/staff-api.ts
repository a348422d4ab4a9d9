import { createContext, useContext } from 'react';
import { VARIANT_HEADER } from '../../contract/variant.ts';
import { API_ERROR_TEXTS } from './texts.ts';

/** The staff API under `/portal/staff`; every path is relative to it (e.g. '/meetings'). */
export interface StaffApi {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
  del<T>(path: string): Promise<T>;
  upload<T>(path: string, form: FormData, onProgress?: (loaded: number, total: number) => void): Promise<T>;
}

/** A failed call: `status` 0 means the server could not be reached; `message` is Swedish, for the screen. */
export class StaffApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string = 'error',
  ) {
    super(message);
    this.name = 'StaffApiError';
  }
}

export interface StaffApiOptions {
  /** `{api}` of the runtime config, e.g. `https://host/portal`. */
  apiUrl: string;
  /** Sent as `X-App-Variant` on every call. */
  variant: string;
  /** A valid access token; `forceRefresh` after the server refused the current one. */
  getAccessToken(forceRefresh?: boolean): Promise<string>;
  /** Called when even a fresh token is refused: the session is over. */
  onUnauthorized(): void;
}

function fallbackMessage(status: number): string {
  if (status === 0) return API_ERROR_TEXTS.network;
  if (status === 401) return API_ERROR_TEXTS.unauthorized;
  if (status === 403) return API_ERROR_TEXTS.forbidden;
  if (status === 404) return API_ERROR_TEXTS.notFound;
  if (status === 409) return API_ERROR_TEXTS.conflict;
  return API_ERROR_TEXTS.generic;
}

/** The server answers errors as `{ error, message }` with a Swedish message; anything else gets ours. */
function errorFrom(status: number, body: unknown): StaffApiError {
  const b = (body ?? {}) as { error?: unknown; message?: unknown };
  const message = typeof b.message === 'string' && b.message ? b.message : fallbackMessage(status);
  return new StaffApiError(status, message, typeof b.error === 'string' ? b.error : 'error');
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function createStaffApi(options: StaffApiOptions): StaffApi {
  const base = `${options.apiUrl.replace(/\/$/, '')}/staff`;

  async function send<T>(method: string, path: string, body?: unknown, retried = false): Promise<T> {
    const token = await options.getAccessToken(retried);
    const headers: Record<string, string> = {
      Authorization: `Bearer ${token}`,
      [VARIANT_HEADER]: options.variant,
      Accept: 'application/json',
    };
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined || method === 'POST' || method === 'PUT') {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body ?? {});
    }
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, { method, headers, body: payload });
    } catch {
      throw new StaffApiError(0, API_ERROR_TEXTS.network, 'network');
    }
    // An access token may be revoked or expire between our check and the server's; one fresh try.
    if (res.status === 401 && !retried) return send<T>(method, path, body, true);
    const data = await readBody(res);
    if (res.status === 401) options.onUnauthorized();
    if (!res.ok) throw errorFrom(res.status, data);
    return data as T;
  }

  function upload<T>(path: string, form: FormData, onProgress?: (loaded: number, total: number) => void) {
    // fetch has no upload progress; XMLHttpRequest does.
    return options.getAccessToken().then(
      (token) =>
        new Promise<T>((resolve, reject) => {
          const xhr = new XMLHttpRequest();
          xhr.open('POST', `${base}${path}`);
          xhr.setRequestHeader('Authorization', `Bearer ${token}`);
          xhr.setRequestHeader(VARIANT_HEADER, options.variant);
          xhr.setRequestHeader('Accept', 'application/json');
          if (onProgress) {
            xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : 0);
          }
          xhr.onerror = () => reject(new StaffApiError(0, API_ERROR_TEXTS.network, 'network'));
          xhr.onload = () => {
            let data: unknown;
            try {
              data = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
            } catch {
              data = xhr.responseText;
            }
            if (xhr.status === 401) options.onUnauthorized();
            if (xhr.status >= 200 && xhr.status < 300) resolve(data as T);
            else reject(errorFrom(xhr.status, data));
          };
          xhr.send(form);
        }),
    );
  }

  return {
    get: (path) => send('GET', path),
    post: (path, body) => send('POST', path, body),
    put: (path, body) => send('PUT', path, body),
    del: (path) => send('DELETE', path),
    upload,
  };
}

export const StaffApiContext = createContext<StaffApi | null>(null);

/** The staff API of the signed-in staff member (only inside the signed-in console). */
export function useStaffApi(): StaffApi {
  const api = useContext(StaffApiContext);
  if (!api) throw new Error('useStaffApi outside the signed-in staff console');
  return api;
}
