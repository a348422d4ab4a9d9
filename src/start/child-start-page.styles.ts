import { css } from '@linaria/core';
import { colors, desktop } from '../styles/theme.ts';
import { START_TEXTS } from './texts.ts';

export const cards = css`
  display: grid;
  gap: 1rem;
  margin: 1rem 0;
  ${desktop} {
    grid-template-columns: 1fr 1fr;
  }
`;

export const card = css`
  /* A grid item may be narrower than its longest word (large text): the word breaks instead. */
  min-width: 0;
  display: flex;
  flex-direction: column;
  align-items: flex-start;
  gap: 0.5rem;
  padding: 1rem;
  border-radius: 12px;
  background: ${colors.surface};
  box-shadow: 0 1px 4px rgb(0 0 0 / 12%);
  h2 {
    margin: 0;
    font-size: 1.25rem;
  }
  p {
    margin: 0;
  }
`;

/**
 * The chat card's room while its state is not known: the offer to start a chat, laid out and kept
 * invisible, so that it is as large at every width and text size. Its words are CSS content: no
 * part of the page's text, of what a screen reader reads or of what a search of the page finds.
 */
export const pendingText = css`
  visibility: hidden;
  &::before {
    content: ${JSON.stringify(START_TEXTS.chatText)};
  }
`;

export const pendingButton = css`
  visibility: hidden;
  &::before {
    content: ${JSON.stringify(START_TEXTS.startChat)};
  }
`;

export const buttons = css`
  display: flex;
  flex-wrap: wrap;
  gap: 0.75rem;
  margin: 1rem 0;
`;

export const error = css`
  color: ${colors.danger};
`;
