import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseKind } from '../database-kind.ts';

/**
 * Security hardening: atomic login throttling with growing delays, per-account token
 * generations, content rate limits, idempotency replays without bodies, an atomic upload quota,
 * signing-key rotation and the staff audit log. Times that are compared arithmetically are epoch
 * milliseconds (bigint), so both engines can add and compare them in one statement.
 */
export function securityMigration(kind: DatabaseKind): Migration {
  const bigint = kind === 'postgres' ? 'bigint' : 'integer';
  const withId = kind === 'postgres' ? 'serial' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      // The old fixed-window failure counters held usernames and addresses in clear: dropped.
      await db.schema.dropTable('login_throttle').execute();
      await db.schema
        .createTable('login_attempts')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_allowed_at', bigint, (c) => c.notNull())
        .addColumn('last_attempt_at', bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('login_attempts_last')
        .on('login_attempts')
        .column('last_attempt_at')
        .execute();
      await db.schema
        .createTable('known_login_addresses')
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('address_digest', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('known_login_addresses_pk', ['subject', 'address_digest'])
        .execute();
      await db.schema
        .createTable('rate_limits')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('window_start', bigint, (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('server_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .alterTable('accounts')
        .addColumn('token_generation', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('refresh_tokens')
        .addColumn('token_generation', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      // A replay is rebuilt from the created entity's id: no message body is kept beside the key.
      await db.schema.alterTable('idempotency_keys').addColumn('response_id', 'integer').execute();
      await db.schema.alterTable('idempotency_keys').dropColumn('response_body').execute();

      await db.schema
        .createTable('account_storage')
        .addColumn('account_id', 'integer', (c) => c.primaryKey())
        .addColumn('used_bytes', bigint, (c) => c.notNull())
        .execute();
      await sql`INSERT INTO account_storage (account_id, used_bytes)
        SELECT owner_account_id, SUM(size) FROM file_blobs GROUP BY owner_account_id`.execute(db);

      await db.schema.alterTable('signing_keys').addColumn('retired_date', 'text').execute();

      await db.schema
        .createTable('audit_log')
        .addColumn('id', withId, (c) =>
          kind === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('account_id', 'integer', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('entity_type', 'text')
        .addColumn('entity_id', 'integer')
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_log_created').on('audit_log').column('created_date').execute();
      await db.schema
        .createIndex('idempotency_keys_created')
        .on('idempotency_keys')
        .column('created_date')
        .execute();
      await db.schema
        .createIndex('conversation_messages_contact')
        .on('conversation_messages')
        .column('contact_id')
        .execute();
      await oneOpenChatPerChild(db);
      await eraseEarlierDeletions(db);
    },
  };
}

const OPEN = sql`('New', 'Responded', 'OnHold', 'InProgress')`;

/**
 * A child has at most one open chat (SPEC §3 chat account status HasActive), held by a unique index,
 * so two chats started at once cannot both open. Any surplus from before is cancelled first.
 */
async function oneOpenChatPerChild(db: Kysely<unknown>) {
  await sql`UPDATE conversations SET state = 'Cancelled', closed_date = ${new Date().toISOString()}
    WHERE system_type = 'chat' AND contact_id IS NOT NULL AND state IN ${OPEN}
    AND id NOT IN (SELECT MAX(id) FROM conversations
      WHERE system_type = 'chat' AND contact_id IS NOT NULL AND state IN ${OPEN} GROUP BY contact_id)`.execute(
    db,
  );
  await sql`CREATE UNIQUE INDEX conversations_one_open_chat ON conversations (contact_id)
    WHERE system_type = 'chat' AND state IN ${OPEN}`.execute(db);
}

/**
 * Accounts deleted before erasure existed kept their words and traces: erased now as a deletion
 * erases them today (server/conversations/erasure.ts). A one-to-one conversation without an owner is
 * one a child deleted or one of a deleted account; either way nothing of the child may remain.
 */
async function eraseEarlierDeletions(db: Kysely<unknown>) {
  const detached = sql`(SELECT id FROM conversations WHERE contact_id IS NULL AND meeting_id IS NULL)`;
  const deletedAccounts = sql`(SELECT id FROM accounts WHERE deleted_date IS NOT NULL)`;
  const deletedContacts = sql`(SELECT contact_id FROM accounts WHERE deleted_date IS NOT NULL)`;
  await sql`DELETE FROM conversation_properties WHERE conversation_id IN ${detached}`.execute(db);
  await sql`UPDATE conversation_messages SET message = '', author_name = NULL, contact_id = NULL
    WHERE conversation_id IN ${detached}`.execute(db);
  await sql`UPDATE conversations SET subject = '', cancel_reason = NULL
    WHERE contact_id IS NULL AND meeting_id IS NULL`.execute(db);
  await sql`UPDATE conversation_messages SET author_name = NULL, contact_id = NULL
    WHERE contact_id IN ${deletedContacts}`.execute(db);
  await sql`DELETE FROM conversation_connections WHERE contact_id IN ${deletedContacts}`.execute(db);
  await sql`DELETE FROM contact_messages WHERE contact_id IN ${deletedContacts}`.execute(db);
  for (const table of [
    'notifications',
    'client_logs',
    'idempotency_keys',
    'refresh_tokens',
    'series_memberships',
    'account_roles',
  ]) {
    await sql`DELETE FROM ${sql.table(table)} WHERE account_id IN ${deletedAccounts}`.execute(db);
  }
  await sql`DELETE FROM meeting_message_files WHERE meeting_message_id IN
    (SELECT id FROM meeting_messages WHERE account_id IN ${deletedAccounts})`.execute(db);
  await sql`UPDATE meeting_messages SET text = '', subject = '' WHERE account_id IN ${deletedAccounts}`.execute(
    db,
  );
  await sql`DELETE FROM file_blobs WHERE owner_account_id IN ${deletedAccounts}
    AND id NOT IN (SELECT blob_id FROM appendices)`.execute(db);
  await sql`DELETE FROM account_storage WHERE account_id IN ${deletedAccounts}`.execute(db);
}
