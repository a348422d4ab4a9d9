import type { Gender } from '../../contract/profile.ts';
import { API_ERRORS } from '../../contract/errors.ts';
import type { RegisterError } from '../../worker/client/account.ts';
import { ERROR_TEXTS, PASSWORD_HINT } from '../errors/texts.ts';
/** Swedish texts of the create-account page (SPEC §2 /skapa-konto). */
export const CREATE_ACCOUNT_TEXTS = {
  heading: 'Skapa konto',
  purpose: {
    peers: 'Skapa ett konto för att prata med andra unga.',
    chat: 'Skapa ett konto för att chatta med en kurator.',
    mail: 'Skapa ett konto för att skriva till en kurator.',
  },
  anonymous: 'Du är anonym hos oss: välj ett användarnamn som inte är ditt riktiga namn.',
  formLabel: 'Skapa konto',
  username: 'Användarnamn',
  usernameHint: '3–30 tecken: små bokstäver a–z, siffror, punkt, understreck och bindestreck.',
  usernameChecking: 'Kontrollerar användarnamnet...',
  usernameAvailable: 'Användarnamnet är ledigt.',
  usernameTaken: API_ERRORS.username_taken.message,
  usernameLength: 'Användarnamnet måste ha 3–30 tecken.',
  usernameCharacters: 'Använd bara a–z, 0–9, punkt, understreck och bindestreck.',
  password: 'Lösenord',
  passwordHint: PASSWORD_HINT,
  passwordTooShort: ERROR_TEXTS.weak_password,
  repeatPassword: 'Upprepa lösenord',
  passwordsDiffer: 'Lösenorden stämmer inte överens.',
  birthYear: 'Födelseår',
  birthYearChoose: 'Välj år',
  gender: 'Kön',
  genders: {
    female: 'Tjej',
    male: 'Kille',
    'non-binary': 'Icke-binär',
    x: 'Vill inte välja',
  } satisfies Record<Gender, string>,
  consent: 'Jag godkänner att mitt användarnamn, födelseår och kön sparas så att jag kan använda tjänsten.',
  consentRequired: 'Du behöver godkänna för att skapa ett konto.',
  required: 'Måste anges.',
  submit: 'Skapa konto',
  submitting: 'Skapar konto...',
  alreadyLoggedIn: 'Du är redan inloggad.',
  created: 'Ditt konto är skapat. Välkommen!',
  errors: {
    username_taken: 'Användarnamnet är upptaget. Välj ett annat.',
    /** The server's own words for a username that looks like a staff title. */
    name_not_allowed: ERROR_TEXTS.name_not_allowed,
    /** The server's own words for a password on its list of common ones. */
    common_password: ERROR_TEXTS.common_password,
    invalid: 'Uppgifterna är inte giltiga. Kontrollera fälten och försök igen.',
    too_many_attempts: ERROR_TEXTS.too_many_attempts,
    offline: ERROR_TEXTS.offline,
    failed: ERROR_TEXTS.failed,
    login_failed: 'Kontot är skapat men inloggningen misslyckades. Logga in med ditt nya konto.',
  } satisfies Record<RegisterError, string>,
} as const;
