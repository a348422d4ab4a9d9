import type { ConnectionState } from '../../contract/connection-state.ts';
import { dot, dotKinds } from './presence-dot.styles.ts';

/**
 * A participant's connection state (SPEC §4) as a coloured dot, in both apps. Decorative: the
 * state is always also given in words beside it.
 */
export function PresenceDot({ state }: { state: ConnectionState }) {
  return <span className={`${dot} ${dotKinds[state]}`} aria-hidden="true" />;
}
