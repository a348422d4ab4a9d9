import { css } from '@linaria/core';
import { TEXT_BOX } from '../styles/controls.ts';
import { colors } from '../styles/theme.ts';

/** The forms a child writes in outside the chat (a mail and its replies, a Peers post and reply). */
export const form = css`
  display: flex;
  flex-direction: column;
  gap: 0.25rem;
  max-width: 40rem;
`;

export const textarea = css`
  width: 100%;
  min-height: 10rem;
  /* A low window (a phone with its keyboard open): room for the counter and 'Skicka' under it. */
  @media (max-height: 30rem) {
    min-height: 4rem;
  }
  ${TEXT_BOX}
  &[aria-invalid='true'] {
    border: 2px solid ${colors.danger};
  }
`;

/** 'Antal tecken: x av max' under a text field. */
export const counter = css`
  margin: 0 0 0.75rem;
  color: ${colors.muted};
  font-size: 0.9375rem;
`;

export const actions = css`
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
  margin-top: 0.5rem;
`;
