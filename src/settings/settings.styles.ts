import { css } from '@linaria/core';
import { secondaryButton } from '../styles/controls.ts';
import { colors } from '../styles/theme.ts';

export { form } from '../login/login-form.styles.ts';
export { hint } from '../styles/form-notes.ts';

/**
 * The secondary button in the danger colour. `&&` outweighs the secondary button's own rules
 * whatever order the two style sheets load in.
 */
const danger = css`
  && {
    border-color: ${colors.danger};
    color: ${colors.danger};
  }
  &&:hover {
    background: #fdeceb;
  }
`;

export const dangerButton = `${secondaryButton} ${danger}`;

export const section = css`
  margin-bottom: 2rem;
`;
