/**
 * The quick exit's handle on the login (docs/security.md, "What the device keeps"): 'Lämna sidan'
 * must end the login at the server as the page goes, and, when it goes offline, at the next start.
 * What the page sends, and what it may leave on the device until the server has answered, must not
 * be a login itself: it is a revoke-only value derived from the refresh token.
 *
 * The handle of a refresh token is base64url(SHA-256(EXIT_HANDLE_PREFIX + token)), in UTF-8; the
 * server keeps base64url(SHA-256(handle)) beside the token's own digest. A handle can end its login
 * at the revocation endpoint (RFC 7009's form, `token_type_hint` EXIT_TOKEN_HINT) and do nothing
 * else: it is no refresh token, no access token, and the token cannot be had back from it.
 * Every refresh token of a login has its own handle, and each ends the whole login (its family),
 * so the handle a tab got at sign-in still works after the tokens rotated.
 */
export const EXIT_HANDLE_PREFIX = 'portal-quick-exit:';

/** The revocation form's `token_type_hint` for a quick exit's handle (ours, beside RFC 7009's two). */
export const EXIT_TOKEN_HINT = 'exit_token';

/** base64url without padding (RFC 4648 §5), of bytes. */
export function base64Url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The exit handle of a refresh token, with the platform's WebCrypto (the worker's and Node's). */
export async function exitHandleOf(refreshToken: string): Promise<string> {
  const data = new TextEncoder().encode(EXIT_HANDLE_PREFIX + refreshToken);
  return base64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', data)));
}
