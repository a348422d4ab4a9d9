import { createContext, useContext } from 'react';
import { VARIANT_HEADER } from '../../contract/variant.ts';
import {
  ANTI_FORGERY_HEADER,
  ANTI_FORGERY_PATH,
  antiForgeryCookieName,
  type AntiForgeryResponse,
} from '../../contract/anti-forgery.ts';
import { apiErrorBodyOf } from '../../client-kit/http/api-error-body.ts';
import { API_ERROR_TEXTS } from './texts.ts';
import { cookieValues } from '../../contract/cookie-header.ts';

/** The staff API under `/portal/staff`; every path is relative to it (e.g. '/meetings'). */
export interface StaffApi {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
  del<T>(path: string): Promise<T>;
  /** Multipart, with progress (which fetch cannot report). */
  upload<T>(path: string, form: FormData, onProgress?: (loaded: number, total: number) => void): Promise<T>;
  /** A file as it is stored (a participant's homework, say). */
  download(path: string): Promise<Blob>;
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
  /** A valid access token; `refused`: the server has just refused this one. */
  getAccessToken(refused?: string): Promise<string>;
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
  const parsed = apiErrorBodyOf(body);
  return new StaffApiError(status, parsed?.message || fallbackMessage(status), parsed?.error ?? 'error');
}

const networkError = () => new StaffApiError(0, API_ERROR_TEXTS.network, 'network');

/** What the server answered, from fetch (a Response) or from XMLHttpRequest alike. */
type Reply = Pick<Response, 'status' | 'ok' | 'text' | 'blob'>;

async function readBody(reply: Reply): Promise<unknown> {
  const text = await reply.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** fetch has no upload progress; XMLHttpRequest does. */
function xhrUpload(
  url: string,
  headers: Record<string, string>,
  form: FormData,
  onProgress?: (loaded: number, total: number) => void,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    if (onProgress) xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : 0);
    xhr.onerror = () => reject(networkError());
    xhr.onload = () =>
      resolve({
        status: xhr.status,
        ok: xhr.status >= 200 && xhr.status < 300,
        text: async () => xhr.responseText,
        blob: async () => new Blob([xhr.responseText]),
      });
    xhr.send(form);
  });
}

/** 403 `anti_forgery`: the anti-forgery cookie was cleared or replaced since it was read. */
async function isAntiForgeryRefusal(reply: Reply): Promise<boolean> {
  if (reply.status !== 403) return false;
  const copy = reply instanceof Response ? reply.clone() : reply;
  return apiErrorBodyOf(await readBody(copy))?.error === 'anti_forgery';
}

export function createStaffApi(options: StaffApiOptions): StaffApi {
  const root = options.apiUrl.replace(/\/$/, '');
  const base = `${root}/staff`;

  /**
   * SPEC §7: the anti-forgery cookie's value, copied into the header of every write (the server
   * asks it of no write a staff token proves, so a planted cookie of the same name costs nothing).
   * The server sets the cookie, `__Host-XSRF-TOKEN` over https, and says its value at
   * `{api}/antiforgery` when the page has none (or after a refusal, `renew`).
   */
  async function antiForgeryToken(renew: boolean): Promise<string | undefined> {
    const name = antiForgeryCookieName(location.protocol === 'https:');
    const [cookie] = cookieValues(document.cookie, name);
    if (cookie && !renew) return cookie;
    try {
      const reply = await fetch(`${root}${ANTI_FORGERY_PATH}`, {
        headers: { [VARIANT_HEADER]: options.variant },
      });
      if (reply.ok) return ((await reply.json()) as AntiForgeryResponse).token;
    } catch {
      // Offline: the write itself will say so.
    }
    return cookie;
  }

  /**
   * The one way a call reaches the server: with the access token and the variant header. An access
   * token may be revoked or expire between our check and the server's, so a 401 gets one more try
   * with a fresh token; a second 401 ends the session.
   */
  async function authorized(
    send: (headers: Record<string, string>) => Promise<Reply>,
    write = false,
  ): Promise<Reply> {
    let forgery = write ? await antiForgeryToken(false) : undefined;
    const headersFor = (token: string) => ({
      Authorization: `Bearer ${token}`,
      [VARIANT_HEADER]: options.variant,
      ...(forgery ? { [ANTI_FORGERY_HEADER]: forgery } : {}),
    });
    let token = await options.getAccessToken();
    let reply = await send(headersFor(token));
    if (write && (await isAntiForgeryRefusal(reply))) {
      forgery = await antiForgeryToken(true);
      reply = await send(headersFor(token));
    }
    if (reply.status === 401) {
      token = await options.getAccessToken(token);
      reply = await send(headersFor(token));
    }
    if (reply.status === 401) options.onUnauthorized();
    return reply;
  }

  async function fetchReply(path: string, init: RequestInit): Promise<Reply> {
    try {
      return await fetch(`${base}${path}`, init);
    } catch {
      throw networkError();
    }
  }

  /** The answer's JSON (or text), or a StaffApiError with the server's message. */
  async function json<T>(reply: Reply): Promise<T> {
    const data = await readBody(reply);
    if (!reply.ok) throw errorFrom(reply.status, data);
    return data as T;
  }

  function send<T>(method: string, path: string, body?: unknown): Promise<T> {
    const withBody = body !== undefined || method === 'POST' || method === 'PUT';
    return authorized(
      (headers) =>
        fetchReply(path, {
          method,
          headers: {
            ...headers,
            Accept: 'application/json',
            ...(withBody ? { 'Content-Type': 'application/json' } : {}),
          },
          body: withBody ? JSON.stringify(body ?? {}) : undefined,
        }),
      method !== 'GET',
    ).then((reply) => json<T>(reply));
  }

  return {
    get: (path) => send('GET', path),
    post: (path, body) => send('POST', path, body),
    put: (path, body) => send('PUT', path, body),
    del: (path) => send('DELETE', path),
    upload: (path, form, onProgress) =>
      authorized(
        (headers) =>
          xhrUpload(`${base}${path}`, { ...headers, Accept: 'application/json' }, form, onProgress),
        true,
      ).then((reply) => json(reply)),
    async download(path) {
      const reply = await authorized((headers) => fetchReply(path, { headers }));
      if (!reply.ok) throw errorFrom(reply.status, await readBody(reply));
      return reply.blob();
    },
  };
}

export const StaffApiContext = createContext<StaffApi | null>(null);

/** The staff API of the signed-in staff member (only inside the signed-in console). */
export function useStaffApi(): StaffApi {
  const api = useContext(StaffApiContext);
  if (!api) throw new Error('useStaffApi outside the signed-in staff console');
  return api;
}
