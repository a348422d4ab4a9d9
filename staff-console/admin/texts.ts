import type { FeedbackAnswer } from '../../contract/chat-feedback.ts';

/** Swedish texts of the administrator's feedback page (ours: SPEC is silent). */
export const FEEDBACK_TEXTS = {
  heading: 'Hur kändes chatten?',
  intro:
    'Barnens svar efter avslutade chattar, per kanal och vecka. Inget svar går att koppla till en chatt eller ett barn.',
  loading: 'Hämtar...',
  retry: 'Försök igen',
  none: 'Inga svar de senaste 12 veckorna.',
  noChannel: 'Utan kanal',
  /** '2026-W50' as 'Vecka 50, 2026'. */
  week: (isoWeek: string) => {
    const [year, week] = isoWeek.split('-W');
    return `Vecka ${Number(week)}, ${year}`;
  },
  answers: (n: number) => (n === 1 ? '1 svar' : `${n} svar`),
  answer: {
    helped: 'Det hjälpte',
    unsure: 'Vet inte',
    not_helped: 'Det hjälpte inte',
    skipped: 'Hoppade över',
  } satisfies Record<FeedbackAnswer, string>,
  share: (label: string, n: number, percent: number) => `${label}: ${n} (${percent} %)`,
  textsHeading: 'Det barnen skrev',
  noTexts: 'Inga texter de senaste 12 veckorna.',
} as const;
