/**
 * SPEC §7: the client copies an anti-forgery cookie into a header on non-GET API calls (a double
 * submit). The server gives a browser the cookie, and the value to copy, at `GET {api}/antiforgery`
 * (a worker cannot read cookies in every browser); a non-GET call under {api} that carries cookies
 * and not the same value in the header is refused with 403 `anti_forgery`.
 */
export const ANTI_FORGERY_COOKIE = 'XSRF-TOKEN';
export const ANTI_FORGERY_HEADER = 'X-XSRF-TOKEN';
/** `GET {api}/antiforgery` (public): `{ token }`, the cookie's value, set anew when missing. */
export const ANTI_FORGERY_PATH = '/antiforgery';

export interface AntiForgeryResponse {
  token: string;
}
