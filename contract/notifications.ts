/** SPEC §3 Notification and Contact message, as {api} sends them (§7 Contact messages and notifications). */

export interface NotificationWire {
  id: number;
  /** An entity key such as `Conversation:12`. */
  entity: string;
  notificationType: string;
  isProcessed: boolean;
  createdDate: string;
}

/** The notification a child gets when a counsellor answers their mail. */
export const NEW_MESSAGE_NOTIFICATION = 'NewMessage';

/** PascalCase, as the product reads a contact message. */
export interface ContactMessageWire {
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
