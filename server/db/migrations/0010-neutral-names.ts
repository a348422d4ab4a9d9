import { sql, type Kysely, type Migration } from 'kysely';
import { NEUTRAL_AUTHOR_NAME } from '../../../contract/peers.ts';

/**
 * Names that were usernames: a new account's name used to be its username, which Peers showed to
 * every child as the author, half of a login. Such a name is cleared (the app then asks for one
 * before the next post, and greets without it), and the posts and replies that carry the author's
 * username are shown by the neutral name instead. Compared without case: 'Alva.a' tells as much as
 * 'alva.a'. Children's accounts only: a staff member's name is theirs to show (a counsellor's
 * answers carry it).
 */
export const neutralNamesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      UPDATE contacts SET name = ''
      WHERE EXISTS (
        SELECT 1 FROM accounts
        WHERE accounts.contact_id = contacts.id AND accounts.username IS NOT NULL
          AND lower(accounts.username) = lower(trim(contacts.name))
          AND EXISTS (
            SELECT 1 FROM account_roles
            WHERE account_roles.account_id = accounts.id AND account_roles.role = 'child'
          )
      )`.execute(db);
    for (const table of ['peer_posts', 'peer_replies']) {
      await sql`
        UPDATE ${sql.table(table)} SET author_name = ${NEUTRAL_AUTHOR_NAME}
        WHERE EXISTS (
          SELECT 1 FROM accounts
          WHERE accounts.id = ${sql.ref(`${table}.author_account_id`)} AND accounts.username IS NOT NULL
            AND lower(accounts.username) = lower(trim(${sql.ref(`${table}.author_name`)}))
            AND EXISTS (
              SELECT 1 FROM account_roles
              WHERE account_roles.account_id = accounts.id AND account_roles.role = 'child'
            )
        )`.execute(db);
    }
  },
};
