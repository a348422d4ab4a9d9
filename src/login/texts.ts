import type { LoginError } from '../../worker/client/session.ts';
import { ERROR_TEXTS } from '../errors/texts.ts';
/** Swedish texts of the login form (SPEC §2 Login form, §5 Login, §8 login errors). */
export const LOGIN_TEXTS = {
  title: 'Logga in',
  username: 'Användarnamn',
  password: 'Lösenord',
  personalCode: 'Personlig kod',
  personalCodePlaceholder: 'Ange den kod du fått av ',
  required: 'Måste anges.',
  personalCodeTooShort: 'Koden måste vara minst 10 tecken.',
  submit: 'Logga in',
  submitting: 'Loggar in...',
  register: 'Har du inget konto? Skapa här',
  logoutReminder: 'Kom ihåg att logga ut ordentligt och stänga webbläsaren när du är klar.',
  alreadyLoggedIn: 'Du är redan inloggad.',
  /** Shared-device mode (our texts, SPEC is silent). */
  sharedDevice: 'Jag använder en delad mobil eller dator',
  sharedDeviceExplained:
    'Då sparas inget på enheten: du loggas ut när du stänger alla flikar eller efter 15 minuter utan aktivitet, och dina chattar går inte att läsa utan internet.',
  // Ours (SPEC is silent): accounts are anonymous, so a forgotten password cannot be sent anywhere.
  forgotPassword: 'Glömt lösenord?',
  forgotPasswordNoEmail:
    'Vi kan inte skicka ett nytt lösenord, eftersom ditt konto inte har någon e-postadress. Det är så du kan vara anonym hos oss.',
  forgotPasswordNewAccount:
    'Du kan skapa ett nytt konto och fortsätta prata med oss där. Med det nya kontot kan du chatta med en kurator eller skriva ett meddelande till oss, precis som förut.',
  forgotPasswordCreateAccount: 'Skapa ett nytt konto',
  /** What each failed login says under the form (SPEC §8; src/login/login-failure.ts). */
  errors: {
    invalid_username_or_password: 'Fel användarnamn eller lösenord.',
    /**
     * The server asked to wait (429): said so, in the words of the other account forms, rather than
     * SPEC §8's general 'Något blev fel. Försök igen.' (see docs/decisions.md).
     */
    too_many_attempts: ERROR_TEXTS.too_many_attempts,
    /** The login got no answer: no network, or the server could not be reached. */
    offline: ERROR_TEXTS.offline,
    failed: ERROR_TEXTS.failed,
  } satisfies Record<LoginError, string>,
} as const;
