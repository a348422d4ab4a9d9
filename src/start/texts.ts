/** Swedish texts of the start pages (SPEC §2 Routes, Group-support start page). */
export const START_TEXTS = {
  intro: 'Chatta med en kurator, skriv ett meddelande eller var med i en stödgrupp.',
  loginPrompt: 'Logga in för att fortsätta.',
  welcomeBack: 'Välkommen tillbaka',
  groupWelcomeHeading: 'Välkommen till stödgruppen',
  groupWelcomeText:
    'Här kan du som är med i en stödgrupp logga in med den personliga kod du har fått av din gruppledare.',
  groupMeetingsHeading: 'Grupptillfällen',
} as const;
