/** Swedish texts of signing in and out of the staff console. */
export const SESSION_TEXTS = {
  heading: 'Logga in',
  intro: 'Personalens konsol för kuratorer, gruppledare och administratörer.',
  username: 'Användarnamn',
  password: 'Lösenord',
  submit: 'Logga in',
  submitting: 'Loggar in...',
  usernameRequired: 'Ange ditt användarnamn.',
  passwordRequired: 'Ange ditt lösenord.',
  invalid: 'Fel användarnamn eller lösenord.',
  throttled: 'För många inloggningsförsök. Försök igen senare.',
  failed: 'Något blev fel. Försök igen.',
  expired: 'Din session har gått ut. Logga in igen.',
  signedOut: 'Du är utloggad.',
  restoring: 'Laddar...',
  notStaff: 'Kontot har ingen behörighet till personalkonsolen.',
} as const;
