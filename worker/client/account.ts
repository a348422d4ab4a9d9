/**
 * The account (SPEC §7 Profile and account, Contact messages and notifications): registration,
 * change password, delete account, notifications and contact messages.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AccountApi {}

/** SPEC §3 Notification, as listed by GET {api}/api/notifications. */
export interface NotificationRow {
  id: number;
  entity: string;
  notificationType: string;
  isProcessed: boolean;
  createdDate: string;
}

/** SPEC §3 Contact message (PascalCase, as the server sends it). */
export interface ContactMessageRow {
  Id: number;
  IsActive: boolean;
  Contact: number;
  MessageDate: string;
  Subject: string;
  Text: string;
  Thread: string | null;
  ThreadPost: string | null;
  IsRead: boolean;
}
