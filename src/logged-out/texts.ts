/** Swedish texts of the logged-out page (SPEC §2 Routes utloggad, §8 Profile load 401). */
export const LOGGED_OUT_TEXTS = {
  heading: 'Du är utloggad',
  text: 'Du har loggat ut. Välkommen tillbaka!',
  sessionExpired: 'Din session har gått ut. Logga in igen för att fortsätta.',
  loginHeading: 'Logga in igen',
} as const;
