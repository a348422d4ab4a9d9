import { css } from '@linaria/core';
import { colors } from '../styles/theme.ts';
export { actions, counter, form, textarea } from '../writing/writing.styles.ts';

export const replyTextarea = css`
  min-height: 6rem;
`;

export const meta = css`
  margin: 0 0 1rem;
  color: ${colors.muted};
`;

/** The thread's messages grow with the page (not a scrolling box like the chat window's). */
export const thread = css`
  margin-bottom: 1.5rem;
  border: 1px solid ${colors.border};
  border-radius: 8px;
  background: ${colors.background};
  ul {
    max-height: none;
  }
`;
