import { css } from '@linaria/core';
import { COLLAPSE_ANIMATION_MS } from '../../contract/timings.ts';
import { colors } from '../styles/theme.ts';

/** Cards, badges and expandable sections shared by the meeting list and the meeting detail. */
export const card = css`
  padding: 1rem 1.25rem;
  margin-bottom: 1rem;
  border-radius: 12px;
  background: ${colors.surface};
  box-shadow: 0 1px 4px rgb(0 0 0 / 12%);
  h3 {
    margin: 0 0 0.25rem;
    font-size: 1.125rem;
  }
`;

export const badge = css`
  display: inline-block;
  padding: 0.125rem 0.625rem;
  border-radius: 999px;
  font-size: 0.875rem;
  font-weight: 600;
  color: #fff;
  background: ${colors.muted};
`;

export const badgeKinds = {
  progress: css`
    background: ${colors.brand};
  `,
  soon: css`
    background: ${colors.success};
  `,
  upcoming: css`
    background: ${colors.chat};
  `,
  ended: css`
    background: ${colors.muted};
  `,
};

export const row = css`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.75rem;
  margin-top: 0.75rem;
`;

/** SPEC §9: an expandable part opens and closes in 300 ms (at once when the user asks for less motion). */
export const expandable = css`
  margin-top: 0.75rem;
  border-top: 1px solid ${colors.border};
  padding-top: 0.5rem;
  interpolate-size: allow-keywords;
  &::details-content {
    block-size: 0;
    overflow: hidden;
    transition:
      block-size ${COLLAPSE_ANIMATION_MS}ms ease,
      content-visibility ${COLLAPSE_ANIMATION_MS}ms allow-discrete;
  }
  &[open]::details-content {
    block-size: auto;
  }
  @media (prefers-reduced-motion: reduce) {
    &::details-content {
      transition: none;
    }
  }
  summary {
    min-height: 44px;
    display: flex;
    align-items: center;
    font-weight: 600;
    cursor: pointer;
    color: ${colors.brand};
  }
`;

export const html = css`
  overflow-wrap: anywhere;
  h3 {
    font-size: 1.25rem;
    margin: 0 0 0.5rem;
  }
`;

export const muted = css`
  color: ${colors.muted};
`;

export const fileList = css`
  list-style: none;
  padding: 0;
  margin: 0.5rem 0;
  li {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem;
    padding: 0.25rem 0;
  }
`;

export { linkButton } from '../styles/controls.ts';
