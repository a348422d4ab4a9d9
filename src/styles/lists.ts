import { css } from '@linaria/core';
import { colors } from './theme.ts';

/**
 * The lists of my pages and Peers (threads, chat history, posts): one row per item, at least a
 * touch target high, the link taking the room it needs.
 */
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
  a,
  button {
    overflow-wrap: anywhere;
  }
`;

export const itemLink = css`
  flex: 1 1 12rem;
  font-weight: 600;
`;
