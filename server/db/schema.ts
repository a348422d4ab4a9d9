import type { PeerItemState } from '../../contract/peers.ts';
import type { ConversationState, MessageAuthorKind, SystemType } from '../../contract/conversations.ts';
import type { MeetingState, MeetingType, SessionState } from '../../contract/meetings.ts';
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
    /** Raised to revoke every token of the account at once (deletion, password or role change). */
    token_generation: Generated<number>;
  };
  account_roles: { account_id: number; role: string };
  contact_properties: { contact_id: number; property_id: string; value: string };
  channels: { id: Generated<number>; name: string; system_type: string };
  conversations: {
    id: Generated<number>;
    contact_id: number | null;
    channel_id: number | null;
    meeting_id: number | null;
    system_type: SystemType;
    subject: string;
    state: ConversationState;
    logged_date: string;
    closed_date: string | null;
    rating: number | null;
    agent_account_id: number | null;
    contact_read_date: string | null;
    last_agent_message_date: string | null;
    last_contact_message_date: string | null;
    last_contact_ping_date: string | null;
    cancel_reason: string | null;
    /** A one-to-one chat: when it went live (the counsellor's first message); null before. */
    live_since: string | null;
    /** A one-to-one chat: when the server ends it (SPEC §9 daily limit, server/conversations/chat-limit.ts). */
    limit_ends_at: string | null;
  };
  conversation_properties: { conversation_id: number; property_id: string; value: string };
  conversation_messages: {
    id: Generated<number>;
    conversation_id: number;
    author_kind: MessageAuthorKind;
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
    state: MeetingState;
    session_state: SessionState;
    meeting_type: MeetingType;
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
    /** The account's token generation when issued: an earlier one no longer rotates. */
    token_generation: Generated<number>;
    /** The token this one was swapped for; null for a login's first. */
    parent_id: number | null;
    /**
     * The digest of the token's quick-exit handle (contract/quick-exit.ts), which can end the login
     * and nothing else; null for a token stored before the handle existed.
     */
    exit_digest: string | null;
  };
  revoked_access_tokens: { token_id: string; expires_at: string };
  /** Keys are HMAC digests (no username or address in clear); times are epoch milliseconds. */
  login_attempts: { key: string; attempts: number; next_allowed_at: number; last_attempt_at: number };
  /** Addresses a login succeeded from (digests), so the global brake spares their owner. */
  known_login_addresses: { subject: string; address_digest: string; last_seen_at: number };
  /**
   * Device tokens the server issued (server/auth/device-tokens.ts), by keyed digest: each spares one
   * account's app the login brakes until its next login replaces it.
   */
  login_devices: { token_digest: string; subject: string; created_at: number; last_used_at: number };
  /**
   * Failed logins and brake refusals per account, hour (epoch ms of its start) and kind
   * (server/auth/login-record.ts); `last_network` is a keyed digest of the last one's network.
   */
  login_record: {
    account_id: number;
    hour: number;
    kind: string;
    count: number;
    first_at: number;
    last_at: number;
    last_network: string | null;
  };
  /** Token buckets: when each will be full again (epoch milliseconds); keys are HMAC digests. */
  rate_buckets: { key: string; full_at: number };
  server_secrets: { name: string; value: string };
  idempotency_keys: {
    account_id: number;
    key: string;
    route: string;
    request_digest: string;
    status_code: number;
    /** The created entity's id: a replay is rebuilt from it, so no body is stored. */
    response_id: number | null;
    created_date: string;
  };
  /** Bytes each account stores, kept in step with file_blobs so the quota check is one atomic update. */
  account_storage: { account_id: number; used_bytes: number };
  /** `private_jwk` is encrypted (`enc:v1:...`) when SIGNING_KEY_SECRET is set. */
  signing_keys: { kid: string; private_jwk: string; created_date: string; retired_date: string | null };
  /** Web Push's VAPID key pairs (base64url); `private_key` is encrypted (`enc:v1:...`) when SIGNING_KEY_SECRET is set. */
  vapid_keys: {
    id: Generated<number>;
    public_key: string;
    private_key: string;
    created_date: string;
    retired_date: string | null;
  };
  /**
   * One push subscription per login (`login_key`: the refresh-token family), with the VAPID key it was
   * made with. Never answered by any route: the endpoint leads to one device.
   */
  push_subscriptions: {
    id: Generated<number>;
    account_id: number;
    login_key: string;
    vapid_key_id: number;
    endpoint: string;
    p256dh: string;
    auth: string;
    created_date: string;
  };
  /** When the last push of a conversation and kind went out (epoch milliseconds): one a minute at most. */
  push_bursts: { key: string; sent_at: number };
  /** Who on the staff read or changed what, when; never any content. */
  /** A counsellor's note about a child for the next counsellor; never in a child's answer. */
  /** 'Hur kändes chatten?' (migration 0015): counts and texts by channel (0: none) and ISO week only. */
  chat_feedback_counts: { channel_id: number; week: string; answer: string; count: number };
  chat_feedback_texts: { id: string; channel_id: number; week: string; text: string };
  /** Which ended chats have had their answer ('answer') and their text ('text'). */
  chat_feedback_given: { conversation_id: number; part: 'answer' | 'text' };
  counsellor_notes: {
    id: Generated<number>;
    contact_id: number;
    conversation_id: number;
    author_account_id: number;
    text: string;
    created_date: string;
  };
  audit_log: {
    id: Generated<number>;
    account_id: number;
    action: string;
    entity_type: string | null;
    entity_id: number | null;
    status: number;
    created_date: string;
  };
  /** Peers: a post for other young people; `reported` 1 when it came back to moderation. */
  peer_posts: {
    id: Generated<number>;
    author_account_id: number;
    author_name: string;
    subject: string;
    text: string;
    state: PeerItemState;
    reject_reason: string | null;
    reported: Generated<number>;
    created_date: string;
    published_date: string | null;
  };
  /** A reply to a peer post; `by_staff` 1 for a counsellor's reply (published at once). */
  peer_replies: {
    id: Generated<number>;
    post_id: number;
    author_account_id: number;
    author_name: string;
    by_staff: Generated<number>;
    text: string;
    state: PeerItemState;
    reject_reason: string | null;
    reported: Generated<number>;
    created_date: string;
    published_date: string | null;
  };
}
