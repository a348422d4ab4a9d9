import { css } from '@linaria/core';

/** Colours with at least 4.5:1 contrast on white, for text and controls. */
export const colors = {
  brand: '#5b2a86',
  brandDark: '#3f1d5e',
  text: '#1f1f24',
  muted: '#55555f',
  surface: '#ffffff',
  background: '#f6f3fa',
  danger: '#b3261e',
  success: '#1e7a3c',
} as const;

export const DESKTOP_MIN_WIDTH = 768;

export const globalStyles = css`
  :global() {
    *,
    *::before,
    *::after {
      box-sizing: border-box;
    }
    body {
      margin: 0;
      font-family:
        system-ui,
        -apple-system,
        'Segoe UI',
        Roboto,
        sans-serif;
      color: #1f1f24;
      background: #f6f3fa;
      line-height: 1.5;
    }
  }
`;
