import { css } from '@linaria/core';
import { BASE_GLOBAL_RULES } from '../../client-kit/theme/global-styles.ts';
import { SPINNER_RULES } from '../../client-kit/spinner/spinner.tsx';
import { colors, sizes, space } from '../../client-kit/theme/tokens.ts';

/** The console's own small style set, drawn with the tokens it shares with the child app (client-kit/theme). */
export { colors };

/** Side by side from here; stacked below (320 px phones and narrow windows). */
export const wide = '@media (min-width: 900px)';

/** The page-wide rules (shared with the child app), and the shared spinner's. */
export const globalStyles = css`
  :global() {
    ${BASE_GLOBAL_RULES}
    ${SPINNER_RULES}
  }
`;

export const button = css`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 0.5rem;
  min-height: ${sizes.tapTarget};
  padding: ${space.s} ${space.l};
  border: 2px solid ${colors.brand};
  border-radius: 8px;
  background: ${colors.brand};
  color: #fff;
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  &:hover:not(:disabled) {
    background: ${colors.brandDark};
    border-color: ${colors.brandDark};
  }
  &:disabled {
    opacity: 0.65;
    cursor: default;
  }
`;

export const secondaryButton = css`
  background: ${colors.surface};
  color: ${colors.brand};
  &:hover:not(:disabled) {
    background: ${colors.background};
    color: ${colors.brandDark};
  }
`;

export const dangerButton = css`
  background: ${colors.surface};
  color: ${colors.danger};
  border-color: ${colors.danger};
  &:hover:not(:disabled) {
    background: #fbeceb;
    border-color: ${colors.danger};
  }
`;

export const field = css`
  display: flex;
  flex-direction: column;
  gap: 0.25rem;
  margin-bottom: 1rem;
  & label {
    font-weight: 600;
  }
  & input,
  & textarea {
    width: 100%;
    min-height: ${sizes.tapTarget};
    padding: ${sizes.controlPadding};
    border: 1px solid ${colors.border};
    border-radius: 8px;
    font: inherit;
    color: ${colors.text};
    background: ${colors.surface};
  }
`;

export const errorText = css`
  margin: 0.5rem 0;
  color: ${colors.danger};
  font-weight: 600;
`;

export const noticeText = css`
  margin: 0.5rem 0;
  padding: ${sizes.controlPadding};
  border-left: 4px solid ${colors.focus};
  background: ${colors.surface};
`;

export const card = css`
  background: ${colors.surface};
  border: 1px solid #d9d4e2;
  border-radius: ${sizes.cardRadius};
  padding: ${space.l};
`;

export const mutedText = css`
  color: ${colors.muted};
`;

/** Items spread over one row (a heading and its buttons), wrapping on narrow screens. */
export const spreadRow = css`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 0.5rem;
`;

/** A chat's messages, scrolling inside their box. */
export const chatList = css`
  list-style: none;
  margin: 0;
  padding: 0.5rem;
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  overflow-y: auto;
  background: ${colors.background};
  border-radius: 8px;
`;

/** A chat message in the counsellor's and the group leader's chats. */
export const bubble = css`
  max-width: 85%;
  padding: 0.5rem 0.75rem;
  border-radius: 12px;
  background: ${colors.surface};
  border: 1px solid #d9d4e2;
  overflow-wrap: anywhere;
  white-space: pre-wrap;
  & p {
    margin: 0;
  }
`;

/** A message's author, time and send status. */
export const meta = css`
  display: block;
  font-size: 0.875rem;
  color: ${colors.muted};
  white-space: normal;
`;

/** The confirmation dialog (ui/confirm-dialog.tsx) and its buttons. */
export const dialog = css`
  max-width: min(28rem, calc(100vw - 2rem));
  border: none;
  border-radius: 12px;
  padding: 1.25rem;
  &::backdrop {
    background: rgb(0 0 0 / 45%);
  }
  & h2 {
    margin-top: 0;
  }
`;

export const dialogActions = css`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: 0.5rem;
`;
