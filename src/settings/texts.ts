import { ERROR_TEXTS } from '../errors/texts.ts';
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
  newPasswordHint: 'Minst 8 tecken.',
  repeatPassword: 'Upprepa nytt lösenord',
  required: 'Måste anges.',
  passwordTooShort: 'Lösenordet måste ha minst 8 tecken.',
  passwordsDiffer: 'Lösenorden stämmer inte överens.',
  sameAsCurrent: 'Det nya lösenordet måste skilja sig från det nuvarande.',
  wrongPassword: 'Fel lösenord. Skriv ditt nuvarande lösenord.',
  /** The server's own words for a password on its list of common ones. */
  commonPassword: 'Lösenordet är för vanligt och lätt att gissa. Välj ett annat.',
  tooManyAttempts: 'För många försök. Vänta en stund och försök igen.',
  submit: 'Byt lösenord',
  submitting: 'Byter lösenord...',
  changed: 'Ditt lösenord är bytt.',
  changedSignedOut: 'Ditt lösenord är bytt. Logga in igen med ditt nya lösenord.',
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
