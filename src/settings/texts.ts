import type { ChangePasswordError } from '../../worker/client/account.ts';
import { ERROR_TEXTS, PASSWORD_HINT } from '../errors/texts.ts';
/** Swedish texts of the settings page (SPEC §2 /installningar). */
export const SETTINGS_TEXTS = {
  heading: 'Inställningar',
  account: 'Konto',
  signedInAs: 'Inloggad som',
  app: 'Om appen',
  version: 'Version',
  /** Ours: the registration's birth year and gender, to change (SPEC §7 contacts update). */
  aboutYou: 'Om dig',
  aboutYouText:
    'Ditt födelseår och kön visas för kuratorn (till exempel ”Tjej, 14 år”), så att vi kan svara dig på bästa sätt.',
  saveDetails: 'Spara',
  savingDetails: 'Sparar...',
  detailsSaved: 'Dina uppgifter är sparade.',
  changePassword: 'Byt lösenord',
  currentPassword: 'Nuvarande lösenord',
  newPassword: 'Nytt lösenord',
  newPasswordHint: PASSWORD_HINT,
  repeatPassword: 'Upprepa nytt lösenord',
  required: 'Måste anges.',
  passwordTooShort: ERROR_TEXTS.weak_password,
  passwordsDiffer: 'Lösenorden stämmer inte överens.',
  sameAsCurrent: 'Det nya lösenordet måste skilja sig från det nuvarande.',
  /** What each refusal of a password change says (src/settings/change-password-feedback.ts). */
  changePasswordErrors: {
    wrong_password: 'Fel lösenord. Skriv ditt nuvarande lösenord.',
    weak_password: ERROR_TEXTS.weak_password,
    /** The server's own words for a password on its list of common ones. */
    common_password: ERROR_TEXTS.common_password,
    too_many_attempts: ERROR_TEXTS.too_many_attempts,
    /** Changed, but signing in again with it failed: the toast as the session page takes over. */
    signed_out: 'Ditt lösenord är bytt. Logga in igen med ditt nya lösenord.',
    offline: ERROR_TEXTS.offline,
    failed: ERROR_TEXTS.failed,
  } satisfies Record<ChangePasswordError, string>,
  submit: 'Byt lösenord',
  submitting: 'Byter lösenord...',
  changed: 'Ditt lösenord är bytt.',
  offline: ERROR_TEXTS.offline,
  failed: ERROR_TEXTS.failed,
  deleteAccount: 'Ta bort konto',
  deleteAccountText:
    'Om du tar bort ditt konto kan du inte logga in med det igen. Ditt användarnamn och dina uppgifter raderas.',
  deleteButton: 'Ta bort mitt konto',
  deleteTitle: 'Ta bort ditt konto?',
  deleteConfirmText:
    'Ditt användarnamn, ditt lösenord och dina uppgifter (födelseår och kön) raderas, och dina chattar och meddelanden kopplas bort från dig så att ingen kan se att de var dina. Det går inte att ångra.',
  deleteYes: 'Ja, ta bort mitt konto',
  deleteNo: 'Avbryt',
  deleting: 'Tar bort ditt konto...',
  deleteFailed: 'Det gick inte att ta bort kontot. Försök igen.',
} as const;
