import type { Generated } from 'kysely';

/**
 * One schema for SQLite and PostgreSQL. Dates are ISO-8601 UTC strings (they sort as text on both),
 * booleans are 0/1 integers, ids are integers, file contents are blobs so that several server
 * processes need no shared disk.
 */
export interface Database {
  contacts: { id: Generated<number>; name: string; created_date: string };
  accounts: {
    id: Generated<number>;
    contact_id: number;
    username: string | null;
    password_hash: string | null;
    /** HMAC of a group participant's personal code: the code itself is never stored. */
    personal_code_digest: string | null;
    created_date: string;
    deleted_date: string | null;
  };
  account_roles: { account_id: number; role: string };
  contact_properties: { contact_id: number; property_id: string; value: string };
  channels: { id: Generated<number>; name: string; system_type: string };
  conversations: {
    id: Generated<number>;
    contact_id: number | null;
    channel_id: number | null;
    meeting_id: number | null;
    system_type: string;
    subject: string;
    state: string;
    logged_date: string;
    closed_date: string | null;
    rating: number | null;
    agent_account_id: number | null;
    contact_read_date: string | null;
    last_agent_message_date: string | null;
    last_contact_message_date: string | null;
    last_contact_ping_date: string | null;
    cancel_reason: string | null;
  };
  conversation_properties: { conversation_id: number; property_id: string; value: string };
  conversation_messages: {
    id: Generated<number>;
    conversation_id: number;
    author_kind: string;
    contact_id: number | null;
    agent_account_id: number | null;
    author_name: string | null;
    message: string;
    logged_date: string;
    created_after_closed: number;
  };
  conversation_connections: {
    id: Generated<number>;
    conversation_id: number;
    contact_id: number;
    contact_name: string;
    connected_date: string | null;
    last_pinged_date: string | null;
    disconnected_date: string | null;
  };
  support_groups: { id: Generated<number>; name: string; information_html: string };
  series: { id: Generated<number>; group_id: number; subject: string };
  series_memberships: { series_id: number; account_id: number; role: string };
  meetings: {
    id: Generated<number>;
    series_id: number;
    subject: string;
    description: string;
    description_content_type: string;
    start_date: string;
    end_date: string;
    duration: number;
    state: string;
    session_state: string;
    meeting_type: string;
    conversation_id: number | null;
    is_active: number;
    deleted_date: string | null;
  };
  appendices: {
    id: Generated<number>;
    meeting_id: number;
    name: string;
    type: string;
    content_type: string;
    blob_id: number;
    is_active: number;
    order_index: number;
    created_by: number;
    created_date: string;
  };
  meeting_messages: {
    id: Generated<number>;
    meeting_id: number;
    account_id: number;
    subject: string;
    text: string;
    message_type: number;
    sender_type: string;
    created_date: string;
    deleted_date: string | null;
  };
  meeting_message_files: {
    id: Generated<number>;
    meeting_message_id: number;
    name: string;
    content_type: string;
    blob_id: number;
  };
  file_blobs: { id: Generated<number>; owner_account_id: number; size: number; content: Uint8Array };
  notifications: {
    id: Generated<number>;
    account_id: number;
    entity: string;
    notification_type: string;
    is_processed: number;
    created_date: string;
  };
  contact_messages: {
    id: Generated<number>;
    contact_id: number;
    is_active: number;
    is_read: number;
    message_date: string;
    subject: string;
    text: string;
    thread: string | null;
    thread_post: string | null;
  };
  client_logs: {
    id: Generated<number>;
    account_id: number | null;
    message: string;
    stack: string | null;
    url: string | null;
    level: string;
    variant: string | null;
    created_date: string;
  };
  refresh_tokens: {
    id: Generated<number>;
    token_digest: string;
    family_id: string;
    account_id: number;
    client_id: string;
    scope: string;
    portal_id: string | null;
    created_date: string;
    expires_at: string;
    family_expires_at: string;
    used_date: string | null;
    revoked_date: string | null;
  };
  revoked_access_tokens: { token_id: string; expires_at: string };
  login_throttle: { key: string; window_start: string; failures: number };
  idempotency_keys: {
    account_id: number;
    key: string;
    route: string;
    request_digest: string;
    status_code: number;
    response_body: string;
    created_date: string;
  };
  signing_keys: { kid: string; private_jwk: string; created_date: string };
}
