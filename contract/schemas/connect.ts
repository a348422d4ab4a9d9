import { Type, type Static } from '@sinclair/typebox';
import { PASSWORD_MAX_LENGTH } from '../limits.ts';
import { Body, Text } from './common.ts';

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
  /** Ours: the app's own device token (see server/auth/routes.ts `deviceKey`), with a password grant. */
  device_token: field(200),
});
export type ConnectForm = Static<typeof ConnectForm>;
