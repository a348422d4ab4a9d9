/**
 * Swedish texts of the child's one-to-one chat (SPEC §2 Chat window, §4 Conversation, §8 modals).
 * Texts the spec does not give (bot messages, notices) are written here in the same voice.
 */
export const CHILD_CHAT_TEXTS = {
  title: 'Chatt',
  waiting: 'Du väntar på din tur',
  queuePlace: (n: number) => `Köplats: ${n}`,
  /** Ours, under the queue place (docs/decisions.md "An honest estimated wait"): 'minut' for 1. */
  estimatedWait: (minutes: number) =>
    minutes === 1 ? 'Ungefärlig väntetid: 1 minut' : `Ungefärlig väntetid: ${minutes} minuter`,
  estimatedWaitLong: 'Det kan dröja mer än 30 minuter',
  writeInstead: 'Skriv ett meddelande i stället',
  live: 'Chatt live',
  /**
   * The chat's time left in its last 10 minutes, 'X minuter kvar'; '1 minut kvar' for 1, as
   * SPEC §2 says 'minut' for 1 in the live duration.
   */
  timeLeft: (minutes: number) => (minutes === 1 ? '1 minut kvar' : `${minutes} minuter kvar`),
  minimize: 'Minimera chatten',
  end: 'Avsluta',
  ending: 'Avslutar',
  close: 'Stäng',
  leaveQueue: 'Lämna kön',
  leavingQueue: 'Lämnar kön',
  newMessages: 'Nya meddelanden!',
  queueBar: 'Chattkö',
  ended: 'Chatten är avslutad',
  activeChat: 'Aktiv chatt',
  connected: 'Du har nu kopplats fram till en kurator',
  counsellor: 'Kurator',
  presubmittedLabel: 'Dina tankar',
  queueMessageLabel: 'Kömeddelande',
  // Ours: asked once in the queue; only 'Ja, tack' asks the browser for system notifications.
  noticeQuestion: 'Vill du få en notis när det är din tur?',
  noticeYes: 'Ja, tack',
  noticeNo: 'Nej tack',
  preSubmitQuestion: 'Vill du beskriva vad du vill chatta om?',
  preSubmitYes: 'Ja, det vill jag',
  preSubmitNo: 'Nej, det vill jag inte',
  preSubmitPrompt: 'Formulera dina tankar (max ett meddelande)',
  preSubmitSent: 'Ditt meddelande har skickats',
  placeholderActive: 'Skriv ditt meddelande',
  placeholderPreSubmit: 'Vad vill du chatta om?',
  placeholderQueue: 'Du väntar på din tur. Kom tillbaka hit var 5:e minut för att stå kvar i kön',
  placeholderEnded: 'Chatten är avslutad',
  queuePosition: (n: number) => `Du har plats ${n} i kön`,
  bot: {
    welcome: (provider: string) => `Hej och välkommen till ${provider}s chatt!`,
    queue:
      'Just nu pratar alla våra kuratorer med andra barn. Du står i kö och får chatta så snart någon av oss blir ledig.',
    returnReminder: 'Kom tillbaka hit minst var 5:e minut, annars förlorar du din plats i kön.',
    tip: 'Tips: medan du väntar kan du skriva ett första meddelande om vad du vill prata om. Du kan chatta i högst 45 minuter en gång per dag.',
  },
  unexpectedCancel:
    'Chatten avslutades och du står inte längre i kön. Det kan bero på att anslutningen bröts eller att du lämnat sidan i mer än 5 minuter.',
  closedModalTitle: 'Chatt avslutad',
  closedModalText: 'Det verkar som att chatten har avslutats eller som att vi fått tekniska problem.',
  closedModalOk: 'OK',
  endedModalTitle: 'Avslutad',
  endedModalText: 'chatten är avslutad',
  leaveConfirm: 'Är du säker på att du vill lämna kön?',
  leaveYes: 'Ja, lämna',
  endConfirm: 'Är du säker på att du vill avsluta chatten?',
  endYes: 'Ja, avsluta',
  cancel: 'Avbryt',
  endFailed: 'Det gick inte att avsluta chatten. Försök igen.',
  /** Ours: a breathing exercise offered in the queue (docs/decisions.md, 'Andas med mig'). */
  breathe: {
    heading: 'Medan du väntar',
    start: 'Andas med mig',
    stop: 'Sluta andas',
    in: 'Andas in ...',
    hold: 'Håll andan ...',
    out: 'Andas ut ...',
  },
  /** Ours: the typical wait by weekday and hour (docs/decisions.md "When it is calm"). */
  calm: {
    link: 'När är det lugnast?',
    title: 'När är det lugnast?',
    intro: 'Så länge brukar man vänta, räknat på de senaste fyra veckorna.',
    /** The two calmest hours in a row, 'Oftast kortast väntetid: tisdagar 15-17'. */
    summary: (days: string, from: number, to: number) => `Oftast kortast väntetid: ${days} ${from}-${to}`,
    tooLittle: 'För lite underlag',
    /** Plural, for 'tisdagar 15-17'. */
    days: ['måndagar', 'tisdagar', 'onsdagar', 'torsdagar', 'fredagar', 'lördagar', 'söndagar'],
    dayNames: ['Måndag', 'Tisdag', 'Onsdag', 'Torsdag', 'Fredag', 'Lördag', 'Söndag'],
    dayShort: ['Mån', 'Tis', 'Ons', 'Tors', 'Fre', 'Lör', 'Sön'],
    chooseDay: 'Välj dag',
    caption: (days: string) => `Vanlig väntetid på ${days}`,
    hourHeading: 'Klockan',
    waitHeading: 'Vanlig väntetid',
    hour: (hour: number) => `${hour}-${hour + 1}`,
    wait: (seconds: number) => {
      const minutes = Math.round(seconds / 60);
      if (minutes < 1) return 'Under 1 minut';
      return minutes === 1 ? '1 minut' : `${minutes} minuter`;
    },
    loading: 'Hämtar väntetider...',
    offline: 'Väntetiderna kan inte hämtas utan internet.',
    failed: 'Väntetiderna kan inte hämtas just nu. Försök igen senare.',
    /** Shown over the last copy when a new one could not be fetched. */
    lastCopy: (when: string) => `Du ser väntetiderna från ${when}.`,
  },
  /** Ours: asked once when a chat with a counsellor has ended (docs/decisions.md "Heard after the chat"). */
  feedback: {
    question: 'Hur kändes chatten?',
    helped: 'Det hjälpte',
    unsure: 'Vet inte',
    notHelped: 'Det hjälpte inte',
    skip: 'Hoppa över',
    more: 'Vill du berätta mer? (frivilligt)',
    // Not 'Skicka': the window's message field keeps its own (disabled) 'Skicka' under it.
    send: 'Skicka svaret',
    left: (n: number) => `${n} tecken kvar`,
    thanks: 'Tack för att du berättade.',
  },
} as const;
