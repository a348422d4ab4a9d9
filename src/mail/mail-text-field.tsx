import { CountedTextField } from '../writing/counted-text-field.tsx';
import { lengthError } from '../writing/length-error.ts';
import { MAIL_MAX_LENGTH } from '../../contract/limits.ts';
import { MAIL_TEXTS as T } from './texts.ts';

/** The rule a message's text follows, in a new post and in a reply alike. */
export const validateMailText = (v: string) =>
  lengthError(v, MAIL_MAX_LENGTH, { required: T.textRequired, tooLong: T.textTooLong }) ?? true;

/** A message's textarea (`register('text', { validate: validateMailText })`) with the mail counter. */
export function MailTextField({
  length,
  ...field
}: Omit<Parameters<typeof CountedTextField>[0], 'counter' | 'counterClassName'> & { length: number }) {
  return <CountedTextField {...field} counter={T.counter(length)} />;
}
