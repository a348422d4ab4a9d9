import type { Kysely, Migration } from 'kysely';

/**
 * An index under every list the apps read, so that none reads a table whole as children,
 * messages and meetings grow; tests/server/db/list-query-plans.test.ts reads the query plans.
 * `[table, columns]` by index name; the same on SQLite and PostgreSQL.
 */
export const LIST_INDEXES: Record<string, [string, string[]]> = {
  // A child's conversations (chats, mail threads), newest first, and their chat account status.
  conversations_contact: ['conversations', ['contact_id', 'logged_date']],
  // A participant's group chats, by meeting.
  conversations_meeting: ['conversations', ['meeting_id']],
  // A counsellor's own conversations, newest first.
  conversations_agent: ['conversations', ['agent_account_id', 'logged_date']],
  // The counsellors' queue, a chat's place in it and each channel's queue length: open ones by state.
  conversations_state: ['conversations', ['state', 'logged_date']],
  conversation_connections_conversation: ['conversation_connections', ['conversation_id', 'contact_id']],
  contact_messages_contact: ['contact_messages', ['contact_id', 'message_date']],
  // Whose series an account sees (every meeting list and meeting read starts here).
  series_memberships_account: ['series_memberships', ['account_id']],
  appendices_meeting: ['appendices', ['meeting_id', 'order_index']],
  meeting_messages_meeting: ['meeting_messages', ['meeting_id', 'account_id']],
  meeting_message_files_message: ['meeting_message_files', ['meeting_message_id']],
  // A mail's owner, to notify them of an answer; the group members who share a series.
  accounts_contact: ['accounts', ['contact_id']],
};

export const listIndexesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const [name, [table, columns]] of Object.entries(LIST_INDEXES)) {
      await db.schema.createIndex(name).on(table).columns(columns).execute();
    }
  },
};
