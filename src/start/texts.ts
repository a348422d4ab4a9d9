/** Swedish texts of the start pages (SPEC §2 Routes, Group-support start page). */
export const START_TEXTS = {
  groupWelcomeHeading: 'Välkommen till stödgruppen',
  groupWelcomeText:
    'Här kan du som är med i en stödgrupp logga in med den personliga kod du har fått av din gruppledare.',
  groupMeetingsHeading: 'Grupptillfällen',
  // The child app's start page (SPEC §1: chat, mail, history; texts not given by the spec).
  /** The name the child chose; none chosen yet greets without one (a username is never a name). */
  childHeading: (name: string) => (name.trim() ? `Hej ${name}!` : 'Hej!'),
  childIntro:
    'Här kan du chatta med en kurator eller skriva ett meddelande. Vi har tystnadsplikt och du är anonym.',
  signedOutText: 'Logga in för att chatta med en kurator eller skriva ett meddelande. Du är anonym hos oss.',
  login: 'Logga in',
  createAccount: 'Skapa konto',
  chatHeading: 'Chatta med en kurator',
  chatText: 'Chatten är öppen för dig en gång per dag i högst 45 minuter. Du kan behöva vänta en stund i kö.',
  startChat: 'Starta en chatt',
  startingChat: 'Startar chatten...',
  inQueue: 'Du står i kö för att chatta.',
  activeChat: 'Du chattar med en kurator just nu.',
  openChat: 'Öppna chatten',
  chattedToday:
    'Du har redan chattat idag. Du kan chatta en gång per dag i högst 45 minuter. Skriv gärna ett meddelande till oss istället.',
  startOffline: 'Du verkar sakna internetuppkoppling. Försök igen när du är uppkopplad.',
  startFailed: 'Det gick inte att starta chatten. Försök igen.',
  mailHeading: 'Skriv ett meddelande',
  mailText: 'Skriv i lugn och ro. En kurator svarar dig, oftast inom några dagar.',
  writeMail: 'Skriv ett meddelande',
  historyLink: 'Dina meddelanden och tidigare chattar',
} as const;
