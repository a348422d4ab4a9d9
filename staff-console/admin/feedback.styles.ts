import { css } from '@linaria/core';
import { colors } from '../ui/styles.ts';

/** One colour per answer, each with 3:1 contrast against the surface and its neighbours. */
export const ANSWER_COLOURS = {
  helped: '#1e7a3c',
  unsure: '#8a6d00',
  not_helped: '#b3261e',
  skipped: '#6b6b78',
} as const;

export const page = css`
  display: grid;
  gap: 1.5rem;
  max-width: 60rem;
  & h1 {
    margin: 0;
    font-size: 1.5rem;
  }
  & h2 {
    margin: 0 0 0.5rem;
    font-size: 1.25rem;
  }
`;

export const weeks = css`
  display: grid;
  gap: 1rem;
  margin: 0;
  padding: 0;
  list-style: none;
`;

export const week = css`
  display: grid;
  gap: 0.25rem;
  & h3 {
    margin: 0;
    font-size: 1rem;
  }
`;

/** The week's answers as one bar, each answer's share its part of the length. */
export const bar = css`
  display: flex;
  height: 1.5rem;
  border-radius: 4px;
  overflow: hidden;
  background: ${colors.background};
`;

export const legend = css`
  display: flex;
  flex-wrap: wrap;
  gap: 0.25rem 1rem;
  margin: 0;
  padding: 0;
  list-style: none;
  & li {
    display: flex;
    align-items: center;
    gap: 0.375rem;
  }
`;

export const swatch = css`
  display: inline-block;
  width: 0.875rem;
  height: 0.875rem;
  border-radius: 2px;
`;

export const texts = css`
  display: grid;
  gap: 0.5rem;
  margin: 0;
  padding: 0;
  list-style: none;
  & li {
    padding: 0.5rem 0.75rem;
    border-left: 4px solid ${colors.brand};
    background: ${colors.surface};
    white-space: pre-wrap;
  }
`;
