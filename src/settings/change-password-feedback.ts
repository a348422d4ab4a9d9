import type { ChangePasswordResult } from '../../worker/client/account.ts';
import { SETTINGS_TEXTS as T } from './texts.ts';

/**
 * What the change-password form shows for a result: a toast (done, or done but signed out), an
 * error beside the field it is about, or a failure under the form.
 */
export type ChangePasswordFeedback =
  | { kind: 'toast'; message: string; success: boolean }
  | { kind: 'field'; field: 'currentPassword' | 'newPassword'; message: string }
  | { kind: 'failure'; message: string };

export function changePasswordFeedback(result: ChangePasswordResult): ChangePasswordFeedback {
  if (result.ok) return { kind: 'toast', message: T.changed, success: true };
  const message = T.changePasswordErrors[result.code];
  switch (result.code) {
    case 'signed_out':
      // The session page takes over (the user is signed out): the toast tells what happened.
      return { kind: 'toast', message, success: false };
    case 'wrong_password':
      return { kind: 'field', field: 'currentPassword', message };
    case 'weak_password':
    case 'common_password':
      return { kind: 'field', field: 'newPassword', message };
    default:
      return { kind: 'failure', message };
  }
}
