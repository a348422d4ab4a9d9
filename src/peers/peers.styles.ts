import { css } from '@linaria/core';
import { linkButton } from '../styles/controls.ts';
import { colors } from '../styles/theme.ts';
export { item, itemLink, list, section } from '../styles/lists.ts';
export { actions, counter, form, textarea } from '../writing/writing.styles.ts';

export const meta = css`
  color: ${colors.muted};
  font-size: 0.9375rem;
`;

export const badge = css`
  padding: 0.125rem 0.5rem;
  border: 1px solid ${colors.border};
  border-radius: 999px;
  font-size: 0.875rem;
  font-weight: 600;
`;

export const note = css`
  flex-basis: 100%;
  margin: 0;
  font-size: 0.9375rem;
`;

export const postText = css`
  white-space: pre-wrap;
  overflow-wrap: anywhere;
`;

export const reply = css`
  padding: 0.75rem;
  border-bottom: 1px solid ${colors.border};
  background: ${colors.surface};
  p {
    margin: 0.25rem 0;
  }
`;

export const staffReply = css`
  border-left: 4px solid ${colors.brand};
`;

export const replyHead = css`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.25rem 0.75rem;
`;

/** 'Anmäl': a link button with room around it, so it is not tapped by mistake next to the text. */
const reportPadding = css`
  padding: 0 0.5rem;
`;
export const reportButton = `${linkButton} ${reportPadding}`;
