import { css } from '@linaria/core';
import type { ConnectionState } from '../../contract/connection-state.ts';
import { colors } from '../theme/tokens.ts';

export const dot = css`
  display: inline-block;
  flex: none;
  width: 12px;
  height: 12px;
  border-radius: 50%;
  border: 2px solid ${colors.text};
`;

export const dotKinds: Record<ConnectionState, string> = {
  Connected: css`
    background: ${colors.success};
  `,
  Away: css`
    background: #f0b400;
  `,
  Disconnected: css`
    background: ${colors.surface};
  `,
};
