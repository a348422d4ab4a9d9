import { css } from '@linaria/core';
import { colors } from '../styles/theme.ts';

/** A compact band under the queue status; its rows wrap at 320 px rather than overflow. */
export const band = css`
  padding: 0.5rem 1rem;
  border-bottom: 1px solid ${colors.border};
  h3 {
    flex: 1 1 8rem;
    margin: 0;
    font-size: 1rem;
  }
`;

export const row = css`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem 0.75rem;
`;

/** Empty (no height) until the exercise runs; kept in the page so its first phase is announced. */
export const exercise = css`
  display: flex;
  align-items: center;
  gap: 1rem;
`;

export const exerciseRunning = css`
  margin-top: 0.5rem;
`;

/** Room for the circle at its largest, so its growing never moves the text beside it. */
export const circleBox = css`
  display: grid;
  place-items: center;
  flex: 0 0 4.5rem;
  height: 4.5rem;
  /* The component leaves the circle out then; this covers a wish changed while it is shown. */
  @media (prefers-reduced-motion: reduce) {
    display: none;
  }
`;

/**
 * Only transform and opacity change (composited, cheap on an old phone). Each phase's class sets the
 * circle's end state and a transition as long as the phase, so the circle follows the text's clock.
 */
export const circle = css`
  width: 4.5rem;
  height: 4.5rem;
  border-radius: 50%;
  background: ${colors.chat};
  transform: scale(0.55);
  opacity: 0.45;
  will-change: transform;
`;

export const breatheIn = css`
  transform: scale(1);
  opacity: 0.8;
  transition:
    transform 4s ease-in-out,
    opacity 4s ease-in-out;
`;

export const hold = css`
  transform: scale(1);
  opacity: 0.8;
`;

export const breatheOut = css`
  transform: scale(0.55);
  opacity: 0.45;
  transition:
    transform 6s ease-in-out,
    opacity 6s ease-in-out;
`;

export const phaseText = css`
  flex: 1 1 auto;
  margin: 0;
  font-size: 1.125rem;
  font-weight: 600;
`;
