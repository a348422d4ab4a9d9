import { Type, type Static } from '@sinclair/typebox';
import { PASSWORD_MAX_LENGTH } from '../limits.ts';
import { Body, Text } from './common.ts';

/** The token request's and answer's field of the device token (docs/security.md, "Login limits"). */
export const DEVICE_TOKEN_FIELD = 'device_token';
/** The client whose password logins are issued device tokens: the child app's. */
export const DEVICE_TOKEN_CLIENT = 'portal-web';

/** A form field of the OAuth endpoints: a bounded string, absent when not sent. */
const field = (maxLength = 4096) => Type.Optional(Text(maxLength));

/**
 * POST /connect/token and /connect/revocation (SPEC §7 Authentication; RFC 6749, RFC 7009): the
 * form fields either may carry. Which ones a grant needs is the handler's to say, with the OAuth
 * error the standard names.
 */
export const ConnectForm = Body({
  grant_type: field(),
  client_id: field(),
  scope: field(),
  username: field(),
  password: field(PASSWORD_MAX_LENGTH),
  portalId: field(),
  refresh_token: field(),
  token: field(),
  token_type_hint: field(),
  /**
   * Ours: the device token the server issued to this app for this account (server/auth/
   * device-tokens.ts), with a password grant. The answer to a successful one carries its successor
   * in the same field.
   */
  [DEVICE_TOKEN_FIELD]: field(200),
});
export type ConnectForm = Static<typeof ConnectForm>;
