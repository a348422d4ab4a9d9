import { css } from '@linaria/core';
import { colors } from '../styles/theme.ts';

export const list = css`
  margin: 0;
  padding: 0;
  list-style: none;
`;

export const card = css`
  padding: 1rem 1.25rem;
  margin-bottom: 1rem;
  border-radius: 12px;
  background: ${colors.surface};
  box-shadow: 0 1px 4px rgb(0 0 0 / 12%);
  h3 {
    margin: 0 0 0.25rem;
    font-size: 1.125rem;
    overflow-wrap: anywhere;
  }
  p {
    margin: 0.25rem 0;
    overflow-wrap: anywhere;
  }
`;

export const unreadCard = css`
  border-left: 4px solid ${colors.brand};
`;

export const meta = css`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem;
  color: ${colors.muted};
  font-size: 0.9375rem;
`;

export const badge = css`
  display: inline-block;
  padding: 0.125rem 0.625rem;
  border-radius: 999px;
  font-size: 0.875rem;
  font-weight: 600;
  color: #fff;
  background: ${colors.brand};
`;

export const readBadge = css`
  background: ${colors.muted};
`;

export const actions = css`
  display: flex;
  flex-wrap: wrap;
  gap: 0.75rem;
  margin-top: 0.75rem;
`;

export const notice = css`
  color: ${colors.muted};
`;

export const error = css`
  color: ${colors.danger};
`;
