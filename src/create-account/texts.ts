/** Swedish texts of the create-account page (SPEC §2 /skapa-konto). */
export const CREATE_ACCOUNT_TEXTS = {
  heading: 'Skapa konto',
  purpose: {
    peers: 'Skapa ett konto för att prata med andra unga.',
    chat: 'Skapa ett konto för att chatta med en kurator.',
    mail: 'Skapa ett konto för att skriva till en kurator.',
  },
  comingSoon: 'Registreringen öppnar snart här.',
} as const;
