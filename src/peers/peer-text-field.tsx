import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { CountedTextField } from '../writing/counted-text-field.tsx';
import * as s from './peers.styles.ts';

/** A post's or reply's textarea with its character counter and its error (the mail form's field). */
export function PeerTextField(props: {
  label: string;
  registration: UseFormRegisterReturn;
  error: FieldError | undefined;
  counter: string;
}) {
  return <CountedTextField {...props} className={s.textarea} counterClassName={s.counter} />;
}
