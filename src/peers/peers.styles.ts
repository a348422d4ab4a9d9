import { css } from '@linaria/core';
import { colors } from '../styles/theme.ts';

export const section = css`
  margin: 1.5rem 0;
`;

export const list = css`
  margin: 0.75rem 0;
  padding: 0;
  list-style: none;
`;

export const item = css`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.25rem 0.75rem;
  min-height: 44px;
  padding: 0.5rem 0.75rem;
  border-bottom: 1px solid ${colors.border};
  background: ${colors.surface};
  a {
    overflow-wrap: anywhere;
  }
`;

export const itemLink = css`
  flex: 1 1 12rem;
  font-weight: 600;
`;

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

export const reportButton = css`
  min-height: 44px;
  padding: 0 0.5rem;
  border: 0;
  background: none;
  color: ${colors.brand};
  font: inherit;
  text-decoration: underline;
  cursor: pointer;
`;

export const form = css`
  display: flex;
  flex-direction: column;
  gap: 0.25rem;
  max-width: 40rem;
`;

export const textarea = css`
  width: 100%;
  min-height: 8rem;
  padding: 0.5rem 0.75rem;
  border: 1px solid ${colors.border};
  border-radius: 6px;
  font: inherit;
  color: ${colors.text};
  background: ${colors.surface};
  &[aria-invalid='true'] {
    border: 2px solid ${colors.danger};
  }
`;

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
