import type { FastifyInstance } from 'fastify';
import {
  CONTACTS_FEATURE_IDS,
  type AccountResponse,
  type ChangePasswordRequest,
  type ContactDetailResponse,
  type ContactUpdateRequest,
  type VerifyUsernameRequest,
} from '../../contract/profile.ts';
import { HUB_EVENTS, entityKey } from '../../contract/hub.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { nowIso, type Db } from '../db/database.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { principalOf, requireAuth } from './guard.ts';
import { shareSeries } from './entity-access.ts';
import { PROPERTY_IDS } from './runtime-config.ts';

const FEATURE_IDS = new Set<string>(Object.values(CONTACTS_FEATURE_IDS));
const USERNAME = /^[a-z0-9._-]{3,30}$/;
export const MIN_PASSWORD_LENGTH = 8;

function featureId(params: unknown): void {
  if (!FEATURE_IDS.has((params as { featureId: string }).featureId)) throw new ApiError('not_found');
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

/** SPEC §7 Profile and account. */
export function registerProfileRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = { preHandler: requireAuth(ctx) };
  const { db } = ctx;

  app.get(
    '/portal/features/contacts/:featureId/detail',
    auth,
    async (req): Promise<ContactDetailResponse> => {
      featureId(req.params);
      return { info: { contact: await contactInfo(db, principalOf(req).contactId) } };
    },
  );

  app.post(
    '/portal/features/contacts/:featureId/update',
    auth,
    async (req): Promise<ContactDetailResponse> => {
      featureId(req.params);
      const principal = principalOf(req);
      const body = (req.body ?? {}) as ContactUpdateRequest;
      const name = body.name === undefined ? undefined : String(body.name).trim();
      if (name !== undefined && (name.length === 0 || name.length > 100)) throw new ApiError('validation');
      const props = Object.entries(body.properties ?? {});
      if (props.some(([id, v]) => !PROPERTY_IDS.includes(id) || String(v).length > 200)) {
        throw new ApiError('validation');
      }
      await db.transaction().execute(async (trx) => {
        if (name !== undefined)
          await trx.updateTable('contacts').set({ name }).where('id', '=', principal.contactId).execute();
        for (const [propertyId, value] of props) {
          await trx
            .insertInto('contact_properties')
            .values({ contact_id: principal.contactId, property_id: propertyId, value: String(value) })
            .onConflict((oc) =>
              oc.columns(['contact_id', 'property_id']).doUpdateSet({ value: String(value) }),
            )
            .execute();
        }
      });
      const contact = await contactInfo(db, principal.contactId);
      await ctx.hub.publishToEntity(entityKey('Contact', contact.id), HUB_EVENTS.contactUpdated, {
        id: contact.id,
      });
      return { info: { contact } };
    },
  );

  app.get('/portal/features/contacts/:featureId/contactname', auth, async (req) => {
    featureId(req.params);
    const principal = principalOf(req);
    const contactId = Number((req.query as { contactId?: string }).contactId);
    if (!Number.isInteger(contactId)) throw new ApiError('bad_request');
    // A counsellor may name any child; a group leader only the members of the groups they lead.
    const allowed =
      contactId === principal.contactId ||
      principal.roles.includes('counsellor') ||
      (await shareSeries(db, principal.accountId, contactId));
    if (!allowed) throw new ApiError('forbidden');
    return { name: (await contactInfo(db, contactId)).name };
  });

  app.get('/portal/accounts', auth, async (req): Promise<AccountResponse> => {
    const principal = principalOf(req);
    const account = await db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', principal.accountId)
      .executeTakeFirst();
    if (!account) throw new ApiError('not_found');
    return {
      id: account.id,
      username: account.username,
      contactId: account.contact_id,
      roles: [...principal.roles],
      createdDate: account.created_date,
    };
  });

  app.post('/portal/api/accounts/changePassword', auth, async (req) => {
    const principal = principalOf(req);
    const body = (req.body ?? {}) as Partial<ChangePasswordRequest>;
    if (typeof body.password !== 'string' || body.password.length < MIN_PASSWORD_LENGTH) {
      throw new ApiError('weak_password');
    }
    const account = await db
      .selectFrom('accounts')
      .select('password_hash')
      .where('id', '=', principal.accountId)
      .executeTakeFirst();
    if (
      !account?.password_hash ||
      !(await verifyPassword(String(body.oldPassword ?? ''), account.password_hash))
    ) {
      throw new ApiError('wrong_password');
    }
    await db
      .updateTable('accounts')
      .set({ password_hash: await hashPassword(body.password) })
      .where('id', '=', principal.accountId)
      .execute();
    return { success: true };
  });

  // Deleting the contact detaches everything from the person: the name is erased, the login is
  // removed and every token of the account stops working.
  app.post('/portal/deleteContact', auth, async (req) => {
    const principal = principalOf(req);
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('accounts')
        .set({ deleted_date: nowIso(), username: null, password_hash: null, personal_code_digest: null })
        .where('id', '=', principal.accountId)
        .execute();
      await trx.updateTable('contacts').set({ name: '' }).where('id', '=', principal.contactId).execute();
      await trx.deleteFrom('contact_properties').where('contact_id', '=', principal.contactId).execute();
      await trx
        .updateTable('conversations')
        .set({ contact_id: null })
        .where('contact_id', '=', principal.contactId)
        .execute();
    });
    await ctx.tokens.revokeAllForAccount(principal.accountId);
    await ctx.tokens.revokeAccessToken(principal);
    await ctx.hub.disconnectToken(principal.tokenId);
    return { success: true };
  });

  app.post('/portal/api/accounts/verifyusername', async (req) => {
    const body = (req.body ?? {}) as Partial<VerifyUsernameRequest>;
    const username = String(body.username ?? '')
      .trim()
      .toLowerCase();
    if (!USERNAME.test(username)) return { available: false };
    const taken = await db
      .selectFrom('accounts')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirst();
    return { available: !taken };
  });

  app.post('/portal/api/accounts/registercontact', async (req, reply) => {
    const key = `reg:${req.ip}` as const;
    const wait = await ctx.throttle.blockedFor([[key, ctx.config.registrationsPerAddress]]);
    if (wait > 0) {
      reply.header('Retry-After', String(wait));
      throw new ApiError('too_many_requests');
    }
    await ctx.throttle.recordFailure([key]);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const username = String(body.username ?? '')
      .trim()
      .toLowerCase();
    const password = String(body.password ?? '');
    if (!USERNAME.test(username)) throw new ApiError('validation');
    if (password.length < MIN_PASSWORD_LENGTH) throw new ApiError('weak_password');
    const taken = await db
      .selectFrom('accounts')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirst();
    if (taken) throw new ApiError('username_taken');
    const properties = Object.entries((body.properties ?? {}) as Record<string, unknown>).filter(([id]) =>
      PROPERTY_IDS.includes(id),
    );
    const passwordHash = await hashPassword(password);
    const created = nowIso();
    const accountId = await db.transaction().execute(async (trx) => {
      const contact = await trx
        .insertInto('contacts')
        .values({ name: username, created_date: created })
        .returning('id')
        .executeTakeFirstOrThrow();
      const account = await trx
        .insertInto('accounts')
        .values({
          contact_id: contact.id,
          username,
          password_hash: passwordHash,
          personal_code_digest: null,
          created_date: created,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.insertInto('account_roles').values({ account_id: account.id, role: 'child' }).execute();
      for (const [propertyId, value] of properties) {
        await trx
          .insertInto('contact_properties')
          .values({ contact_id: contact.id, property_id: propertyId, value: String(value).slice(0, 200) })
          .execute();
      }
      return account.id;
    });
    return reply.code(201).send({ id: accountId, username });
  });
}
