import type { Kysely, Migration, CreateTableBuilder } from 'kysely';
import type { DatabaseKind } from '../database-kind.ts';

/** The first schema: every table of SPEC §3 the reference server keeps. */
export function initialMigration(kind: DatabaseKind): Migration {
  // Auto-increment ids are spelled differently by the two engines; everything else is shared SQL.
  const withId = <T extends string>(t: CreateTableBuilder<T, never>) =>
    kind === 'postgres'
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  const blob = kind === 'postgres' ? 'bytea' : 'blob';

  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('contacts'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .execute();
      await withId(db.schema.createTable('accounts'))
        .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id'))
        .addColumn('username', 'text', (c) => c.unique())
        .addColumn('password_hash', 'text')
        .addColumn('personal_code_digest', 'text', (c) => c.unique())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('deleted_date', 'text')
        .execute();
      await db.schema
        .createTable('account_roles')
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('account_roles_pk', ['account_id', 'role'])
        .execute();
      await db.schema
        .createTable('contact_properties')
        .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id'))
        .addColumn('property_id', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('contact_properties_pk', ['contact_id', 'property_id'])
        .execute();
      await withId(db.schema.createTable('channels'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('system_type', 'text', (c) => c.notNull())
        .execute();
      await withId(db.schema.createTable('support_groups'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('information_html', 'text', (c) => c.notNull())
        .execute();
      await withId(db.schema.createTable('series'))
        .addColumn('group_id', 'integer', (c) => c.notNull().references('support_groups.id'))
        .addColumn('subject', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('series_memberships')
        .addColumn('series_id', 'integer', (c) => c.notNull().references('series.id'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('series_memberships_pk', ['series_id', 'account_id'])
        .execute();
      await withId(db.schema.createTable('meetings'))
        .addColumn('series_id', 'integer', (c) => c.notNull().references('series.id'))
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('description_content_type', 'text', (c) => c.notNull())
        .addColumn('start_date', 'text', (c) => c.notNull())
        .addColumn('end_date', 'text', (c) => c.notNull())
        .addColumn('duration', 'integer', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('session_state', 'text', (c) => c.notNull())
        .addColumn('meeting_type', 'text', (c) => c.notNull())
        .addColumn('conversation_id', 'integer')
        .addColumn('is_active', 'integer', (c) => c.notNull())
        .execute();
      await withId(db.schema.createTable('conversations'))
        .addColumn('contact_id', 'integer', (c) => c.references('contacts.id'))
        .addColumn('channel_id', 'integer', (c) => c.references('channels.id'))
        .addColumn('meeting_id', 'integer', (c) => c.references('meetings.id'))
        .addColumn('system_type', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('logged_date', 'text', (c) => c.notNull())
        .addColumn('closed_date', 'text')
        .addColumn('rating', 'integer')
        .addColumn('agent_account_id', 'integer', (c) => c.references('accounts.id'))
        .addColumn('contact_read_date', 'text')
        .addColumn('last_agent_message_date', 'text')
        .addColumn('last_contact_message_date', 'text')
        .addColumn('last_contact_ping_date', 'text')
        .addColumn('cancel_reason', 'text')
        .execute();
      await db.schema
        .createTable('conversation_properties')
        .addColumn('conversation_id', 'integer', (c) => c.notNull().references('conversations.id'))
        .addColumn('property_id', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('conversation_properties_pk', ['conversation_id', 'property_id'])
        .execute();
      await withId(db.schema.createTable('conversation_messages'))
        .addColumn('conversation_id', 'integer', (c) => c.notNull().references('conversations.id'))
        .addColumn('author_kind', 'text', (c) => c.notNull())
        .addColumn('contact_id', 'integer')
        .addColumn('agent_account_id', 'integer')
        .addColumn('author_name', 'text')
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('logged_date', 'text', (c) => c.notNull())
        .addColumn('created_after_closed', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await withId(db.schema.createTable('conversation_connections'))
        .addColumn('conversation_id', 'integer', (c) => c.notNull().references('conversations.id'))
        .addColumn('contact_id', 'integer', (c) => c.notNull())
        .addColumn('contact_name', 'text', (c) => c.notNull())
        .addColumn('connected_date', 'text')
        .addColumn('last_pinged_date', 'text')
        .addColumn('disconnected_date', 'text')
        .execute();
      await withId(db.schema.createTable('file_blobs'))
        .addColumn('owner_account_id', 'integer', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('content', blob, (c) => c.notNull())
        .execute();
      await withId(db.schema.createTable('appendices'))
        .addColumn('meeting_id', 'integer', (c) => c.notNull().references('meetings.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('blob_id', 'integer', (c) => c.notNull().references('file_blobs.id'))
        .addColumn('is_active', 'integer', (c) => c.notNull())
        .addColumn('order_index', 'integer', (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .execute();
      await withId(db.schema.createTable('meeting_messages'))
        .addColumn('meeting_id', 'integer', (c) => c.notNull().references('meetings.id'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('message_type', 'integer', (c) => c.notNull())
        .addColumn('sender_type', 'text', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('deleted_date', 'text')
        .execute();
      await withId(db.schema.createTable('meeting_message_files'))
        .addColumn('meeting_message_id', 'integer', (c) => c.notNull().references('meeting_messages.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('blob_id', 'integer', (c) => c.notNull().references('file_blobs.id'))
        .execute();
      await withId(db.schema.createTable('notifications'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('notification_type', 'text', (c) => c.notNull())
        .addColumn('is_processed', 'integer', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .execute();
      await withId(db.schema.createTable('contact_messages'))
        .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id'))
        .addColumn('is_active', 'integer', (c) => c.notNull())
        .addColumn('is_read', 'integer', (c) => c.notNull())
        .addColumn('message_date', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('thread', 'text')
        .addColumn('thread_post', 'text')
        .execute();
      await withId(db.schema.createTable('client_logs'))
        .addColumn('account_id', 'integer')
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('stack', 'text')
        .addColumn('url', 'text')
        .addColumn('level', 'text', (c) => c.notNull())
        .addColumn('variant', 'text')
        .addColumn('created_date', 'text', (c) => c.notNull())
        .execute();
      await withId(db.schema.createTable('refresh_tokens'))
        .addColumn('token_digest', 'text', (c) => c.notNull().unique())
        .addColumn('family_id', 'text', (c) => c.notNull())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('portal_id', 'text')
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('family_expires_at', 'text', (c) => c.notNull())
        .addColumn('used_date', 'text')
        .addColumn('revoked_date', 'text')
        .execute();
      await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').column('family_id').execute();
      await db.schema
        .createTable('revoked_access_tokens')
        .addColumn('token_id', 'text', (c) => c.primaryKey())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('login_throttle')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('window_start', 'text', (c) => c.notNull())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('account_id', 'integer', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('route', 'text', (c) => c.notNull())
        .addColumn('request_digest', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer', (c) => c.notNull())
        .addColumn('response_body', 'text', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
        .execute();
      await db.schema
        .createTable('signing_keys')
        .addColumn('kid', 'text', (c) => c.primaryKey())
        .addColumn('private_jwk', 'text', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('conversation_messages_conversation')
        .on('conversation_messages')
        .columns(['conversation_id', 'logged_date'])
        .execute();
      await db.schema.createIndex('meetings_series').on('meetings').column('series_id').execute();
      await db.schema
        .createIndex('notifications_account')
        .on('notifications')
        .columns(['account_id', 'created_date'])
        .execute();
    },
  };
}
