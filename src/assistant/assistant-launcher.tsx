import { useConfig } from '../config/runtime-config.tsx';
import { primaryButton } from '../styles/controls.ts';
import { openAssistant } from './assistant-state.ts';
import { ASSISTANT_TEXTS as T } from './texts.ts';

/**
 * 'Fråga assistenten': opens the virtual assistant (SPEC §4: Inactive until opened), signed in or
 * not. Renders nothing where the variant has no assistant, so any start page may place it.
 */
export function AssistantLauncher() {
  const { features } = useConfig();
  if (!features.assistant) return null;
  return (
    <button type="button" className={primaryButton} onClick={openAssistant}>
      {T.launcher}
    </button>
  );
}
