import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CONTACTS_FEATURE_IDS,
  GENDERS,
  OLDEST_BIRTH_YEAR_BACK,
  type AccountResponse,
  type ContactDetailResponse,
  type ContactNameResponse,
  type RegisterContactResponse,
} from '../../contract/profile.ts';
import {
  ChangePasswordBody,
  ContactNameQuery,
  ContactUpdateBody,
  FeatureParams,
  RegisterContactBody,
  VerifyUsernameBody,
} from '../../contract/schemas/profile.ts';
import { HUB_EVENTS, entityKey } from '../../contract/hub.ts';
import type { Api, AppContext } from '../context.ts';
import type { Principal } from '../auth/principal.ts';
import { ApiError } from '../errors.ts';
import { isUniqueViolation, type Db } from '../db/database.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { revokeAccount } from '../auth/revoke-account.ts';
import { checkNewPassword } from '../security/password-policy.ts';
import {
  DISPLAY_NAME_MAX_LENGTH,
  USERNAME_PATTERN,
  PROFILE_PROPERTY_MAX_LENGTH,
} from '../../contract/limits.ts';
import { acceptDisplayName, looksLikeStaff } from '../security/display-name.ts';
import { eraseAccount } from '../conversations/erasure.ts';
import { principalOf } from '../http/guard.ts';
import { shareSeries } from '../auth/entity-access.ts';
import { PROVIDER } from '../../contract/first-screen.ts';
import { PROPERTY_IDS, PROPERTY_ID_MAP } from '../wire-ids.ts';
import { insertAccounts } from '../auth/accounts.ts';

const FEATURE_IDS = new Set<string>(Object.values(CONTACTS_FEATURE_IDS));

function featureId(params: { featureId: string }): void {
  if (!FEATURE_IDS.has(params.featureId)) throw new ApiError('not_found');
}

export async function contactInfo(db: Db, contactId: number) {
  const contact = await db.selectFrom('contacts').selectAll().where('id', '=', contactId).executeTakeFirst();
  if (!contact) throw new ApiError('not_found');
  const props = await db
    .selectFrom('contact_properties')
    .selectAll()
    .where('contact_id', '=', contactId)
    .execute();
  return {
    name: contact.name,
    id: contact.id,
    properties: Object.fromEntries(props.map((p) => [p.property_id, p.value])),
    createdDate: contact.created_date,
  };
}

/**
 * Guessing the old password through a stolen session is a login attempt like any other: spaced out
 * by the same growing delay, per account.
 */
async function checkOldPassword(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, old: string) {
  const principal = principalOf(req);
  const counter = { key: `change-password:${principal.accountId}`, rule: ctx.throttle.policy.pair };
  const attempt = await ctx.throttle.begin([counter], [], async () => false);
  if (attempt.retryAfter > 0) {
    reply.header('Retry-After', String(attempt.retryAfter));
    throw new ApiError('too_many_requests');
  }
  const account = await ctx.db
    .selectFrom('accounts')
    .select(['password_hash', 'username'])
    .where('id', '=', principal.accountId)
    .executeTakeFirst();
  if (!account?.password_hash || !(await verifyPassword(old, account.password_hash))) {
    throw new ApiError('wrong_password');
  }
  await ctx.throttle.succeeded(attempt, [counter]);
  return account;
}

/** Gender and birth year take only what the forms offer: they label the child's messages for staff. */
function propertyValueAccepted(id: string, value: string): boolean {
  if (id === PROPERTY_ID_MAP.gender) return (GENDERS as readonly string[]).includes(value);
  if (id === PROPERTY_ID_MAP.birthYear) {
    const thisYear = new Date().getFullYear();
    const year = Number(value);
    return /^\d{4}$/.test(value) && year <= thisYear && year >= thisYear - OLDEST_BIRTH_YEAR_BACK;
  }
  return true;
}

/** The name others would see is the account's own username (in any case): half its login. */
async function isOwnUsername(ctx: AppContext, principal: Principal, name: string): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('accounts')
    .select('username')
    .where('id', '=', principal.accountId)
    .executeTakeFirst();
  return !!row?.username && row.username.toLowerCase() === name.trim().toLowerCase();
}

/** A name or property change (SPEC §7 contacts update), told to whoever watches the contact. */
async function updateContact(ctx: AppContext, principal: Principal, body: ContactUpdateBody) {
  // A name shows beside the child's messages in a group: no staff title, no invisible tricks.
  const name =
    body.name === undefined
      ? undefined
      : acceptDisplayName(body.name, PROVIDER.name, DISPLAY_NAME_MAX_LENGTH);
  if (name !== undefined && (await isOwnUsername(ctx, principal, name)))
    throw new ApiError('name_not_allowed');
  const props = Object.entries(body.properties ?? {});
  if (props.some(([id, value]) => !PROPERTY_IDS.includes(id) || !propertyValueAccepted(id, String(value)))) {
    throw new ApiError('validation');
  }
  await ctx.db.transaction().execute(async (trx) => {
    if (name !== undefined)
      await trx.updateTable('contacts').set({ name }).where('id', '=', principal.contactId).execute();
    for (const [propertyId, value] of props) {
      await trx
        .insertInto('contact_properties')
        .values({ contact_id: principal.contactId, property_id: propertyId, value: String(value) })
        .onConflict((oc) => oc.columns(['contact_id', 'property_id']).doUpdateSet({ value: String(value) }))
        .execute();
    }
  });
  const contact = await contactInfo(ctx.db, principal.contactId);
  await ctx.hub.publishToEntity(entityKey('Contact', contact.id), HUB_EVENTS.contactUpdated, {
    id: contact.id,
  });
  return contact;
}

async function account(ctx: AppContext, principal: Principal): Promise<AccountResponse> {
  const row = await ctx.db
    .selectFrom('accounts')
    .selectAll()
    .where('id', '=', principal.accountId)
    .executeTakeFirst();
  if (!row) throw new ApiError('not_found');
  return {
    id: row.id,
    username: row.username,
    contactId: row.contact_id,
    roles: [...principal.roles],
    createdDate: row.created_date,
  };
}

/**
 * The new hash and the new generation in one statement, so no login can pair the old password with
 * the new generation; then every session of the account ends.
 */
async function changePassword(
  ctx: AppContext,
  principal: Principal,
  username: string | null,
  password: string,
) {
  await checkNewPassword(password, username);
  const hash = await hashPassword(password);
  await ctx.db
    .updateTable('accounts')
    .set((eb) => ({ password_hash: hash, token_generation: eb('token_generation', '+', 1) }))
    .where('id', '=', principal.accountId)
    .execute();
  await revokeAccount(ctx, principal.accountId);
}

/**
 * A new child account (public, limited per address); answers its id, the username as stored and a
 * device token for it (server/auth/device-tokens.ts): the app that registered keeps it, so its first
 * login is spared a brake armed on the address it registered from (a school's, where many sign up
 * at once) as every later login on that device is. The address itself becomes no known-good one:
 * another device there is braked as before.
 */
async function registerContact(ctx: AppContext, body: RegisterContactBody): Promise<RegisterContactResponse> {
  const username = body.username.trim().toLowerCase();
  if (!USERNAME_PATTERN.test(username)) throw new ApiError('validation');
  // Nobody else ever sees a username, but one that reads as a staff title is still refused: a child
  // might give it as their name in a chat, and a counsellor read it as a colleague's.
  if (looksLikeStaff(username, PROVIDER.name)) throw new ApiError('name_not_allowed');
  await checkNewPassword(body.password, username);
  const taken = await ctx.db
    .selectFrom('accounts')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirst();
  if (taken) throw new ApiError('username_taken');
  const properties = Object.entries(body.properties ?? {}).filter(([id]) => PROPERTY_IDS.includes(id));
  // The same values as a later update may set: they label the child for staff from the first chat.
  if (properties.some(([id, value]) => !propertyValueAccepted(id, String(value)))) {
    throw new ApiError('validation');
  }
  const passwordHash = await hashPassword(body.password);
  // Two registrations of one name at once: the unique key decides, and the loser hears it is taken.
  const accountId = await ctx.db
    .transaction()
    .execute(async (trx) => {
      // No name until the child chooses one: a username shown to others is half a login.
      const [made] = await insertAccounts(trx, [
        { name: '', roles: ['child'], login: { username, passwordHash } },
      ]);
      for (const [propertyId, value] of properties) {
        await trx
          .insertInto('contact_properties')
          .values({
            contact_id: made!.contactId,
            property_id: propertyId,
            value: String(value).slice(0, PROFILE_PROPERTY_MAX_LENGTH),
          })
          .execute();
      }
      return made!.accountId;
    })
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? new ApiError('username_taken') : error;
    });
  const deviceToken = await ctx.throttle.devices.issue(`account:${accountId}`, null);
  return { id: accountId, username, deviceToken };
}

/** SPEC §7 Profile and account. */
export function registerProfileRoutes(app: Api, ctx: AppContext) {
  const { db } = ctx;
  const providerName = PROVIDER.name;

  app.get(
    '/features/contacts/:featureId/detail',
    { schema: { params: FeatureParams } },
    async (req): Promise<ContactDetailResponse> => {
      featureId(req.params);
      return { info: { contact: await contactInfo(db, principalOf(req).contactId) } };
    },
  );

  app.post(
    '/features/contacts/:featureId/update',
    {
      preHandler: [ctx.limits.preHandler('profile')],
      schema: { params: FeatureParams, body: ContactUpdateBody },
    },
    async (req): Promise<ContactDetailResponse> => {
      featureId(req.params);
      return { info: { contact: await updateContact(ctx, principalOf(req), req.body) } };
    },
  );

  app.get(
    '/features/contacts/:featureId/contactname',
    {
      schema: { params: FeatureParams, querystring: ContactNameQuery },
    },
    async (req): Promise<ContactNameResponse> => {
      featureId(req.params);
      const principal = principalOf(req);
      const contactId = req.query.contactId;
      // A participant may name the members of their own groups.
      const allowed =
        contactId === principal.contactId || (await shareSeries(db, principal.accountId, contactId));
      if (!allowed) throw new ApiError('forbidden');
      return { name: (await contactInfo(db, contactId)).name };
    },
  );

  app.get('/accounts', async (req) => account(ctx, principalOf(req)));

  // A new password ends every session of the account, on every device and hub connection: whoever
  // knew the old one is out. The client signs in again with the new password.
  app.post(
    '/api/accounts/changePassword',
    {
      schema: { body: ChangePasswordBody },
    },
    async (req, reply) => {
      const account = await checkOldPassword(ctx, req, reply, req.body.oldPassword);
      await changePassword(ctx, principalOf(req), account.username, req.body.password);
      return { success: true };
    },
  );

  // Deleting the contact erases the person (server/conversations/erasure.ts) and ends every session.
  // Takes no body: whatever comes is not read.
  app.post('/deleteContact', async (req) => {
    const principal = principalOf(req);
    await eraseAccount(ctx, principal.accountId, principal.contactId);
    return { success: true };
  });

  app.post(
    '/api/accounts/verifyusername',
    {
      config: { public: true },
      preHandler: ctx.limits.preHandler('usernameCheck'),
      schema: { body: VerifyUsernameBody },
    },
    async (req) => {
      const username = (req.body.username ?? '').trim().toLowerCase();
      if (!USERNAME_PATTERN.test(username) || looksLikeStaff(username, providerName))
        return { available: false };
      const taken = await db
        .selectFrom('accounts')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirst();
      return { available: !taken };
    },
  );

  app.post(
    '/api/accounts/registercontact',
    {
      config: { public: true },
      preHandler: ctx.limits.preHandler('registration'),
      schema: { body: RegisterContactBody },
    },
    async (req, reply) => reply.code(201).send(await registerContact(ctx, req.body)),
  );
}
