import { BODY_RULES, colors, focusRing } from './tokens.ts';

/**
 * The page-wide rules both apps start from: box sizing, the body's font and colours, links, the
 * focus ring, the visually-hidden helper and no motion for those who asked their system for less.
 * Plain rules, not a stylesheet of their own: each app writes them into its own global styles
 * (inside `:global()`), so that each page's first paint waits for one stylesheet, its own.
 */
export const BASE_GLOBAL_RULES = `
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  body {
    ${BODY_RULES}
  }
  a {
    color: ${colors.brand};
  }
  :focus-visible {
    outline: ${focusRing.outline};
    outline-offset: ${focusRing.offset};
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
  /* Every animation, transition and smooth scroll, in one place: also those added later. */
  @media (prefers-reduced-motion: reduce) {
    *,
    *::before,
    *::after {
      animation-duration: 0s !important;
      animation-delay: 0s !important;
      animation-iteration-count: 1 !important;
      transition-duration: 0s !important;
      transition-delay: 0s !important;
      scroll-behavior: auto !important;
    }
  }
`;
