import { Type, type Static } from '@sinclair/typebox';
import { LOGIN_NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PROFILE_PROPERTY_MAX_LENGTH } from '../limits.ts';
import { AnyId, Body, Params, PropertyMap, Query, Text } from './common.ts';

/** SPEC §7 Profile and account, and the contact messages under the same feature ids. */

/** `{featureId}` of the contact and meeting calls. */
export const FeatureParams = Params({ featureId: Text(100) });

/** POST .../features/contacts/{featureId}/update */
export const ContactUpdateBody = Body({
  name: Type.Optional(Text(200)),
  properties: Type.Optional(PropertyMap(PROFILE_PROPERTY_MAX_LENGTH)),
});
export type ContactUpdateBody = Static<typeof ContactUpdateBody>;

/** GET .../features/contacts/{featureId}/contactname */
export const ContactNameQuery = Query({ contactId: AnyId });

/** POST {api}/api/accounts/changePassword */
export const ChangePasswordBody = Body({
  oldPassword: Text(PASSWORD_MAX_LENGTH),
  password: Text(PASSWORD_MAX_LENGTH),
});
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

/** POST {api}/api/accounts/verifyusername (public) */
export const VerifyUsernameBody = Body({
  username: Type.Optional(Text(LOGIN_NAME_MAX_LENGTH)),
  token: Type.Optional(Text(4096)),
});
export type VerifyUsernameBody = Static<typeof VerifyUsernameBody>;

/** POST {api}/api/accounts/registercontact (public) */
export const RegisterContactBody = Body({
  username: Text(LOGIN_NAME_MAX_LENGTH),
  password: Text(PASSWORD_MAX_LENGTH),
  properties: Type.Optional(PropertyMap(PROFILE_PROPERTY_MAX_LENGTH)),
});
export type RegisterContactBody = Static<typeof RegisterContactBody>;

/** POST .../processmessage/ and .../deletemessage/: the client sends the whole message; only Id is read. */
export const ContactMessageRefBody = Body({ Id: AnyId });
