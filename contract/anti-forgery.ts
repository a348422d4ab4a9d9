/**
 * SPEC §7: the client copies an anti-forgery cookie into a header on non-GET API calls (a double
 * submit). The server gives a browser the cookie, and the value to copy, at `GET {api}/antiforgery`
 * (a worker cannot read cookies in every browser); a non-GET call under {api} that carries cookies,
 * and no bearer token the route verified, must carry one of the cookie's values in the header, or
 * it is refused with 403 `anti_forgery` (docs/security.md, The browser and the network).
 */
export const ANTI_FORGERY_COOKIE = 'XSRF-TOKEN';
/**
 * The cookie's name on a site served over https: browsers take a `__Host-` cookie only with
 * `Secure`, `Path=/` and no `Domain`, from a secure page of this very host, so no sibling
 * subdomain, plain-http answer or page at a longer path can plant one beside it.
 */
export const ANTI_FORGERY_HOST_COOKIE = `__Host-${ANTI_FORGERY_COOKIE}`;
export const ANTI_FORGERY_HEADER = 'X-XSRF-TOKEN';
/** `GET {api}/antiforgery` (public): `{ token }`, a value the answer also sets in the cookie. */
export const ANTI_FORGERY_PATH = '/antiforgery';

/** The anti-forgery cookie's name on a site served over https (`secure`) or plain http. */
export function antiForgeryCookieName(secure: boolean): string {
  return secure ? ANTI_FORGERY_HOST_COOKIE : ANTI_FORGERY_COOKIE;
}

export interface AntiForgeryResponse {
  token: string;
}
