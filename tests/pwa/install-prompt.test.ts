import { describe, expect, it, vi } from 'vitest';
import {
  answerInstallPrompt,
  installPrompt,
  isMobileUserAgent,
  watchInstallPrompt,
  type BeforeInstallPromptEvent,
} from '../../src/pwa/install-prompt.ts';

const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36';
const DESKTOP =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

function offer() {
  const event = new Event('beforeinstallprompt', { cancelable: true }) as BeforeInstallPromptEvent;
  Object.assign(event, { prompt: vi.fn(async () => ({ outcome: 'accepted' })) });
  return event;
}

describe('install prompt', () => {
  it('knows mobile and Android user agents', () => {
    expect(isMobileUserAgent(ANDROID)).toBe(true);
    expect(isMobileUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148')).toBe(
      true,
    );
    expect(isMobileUserAgent(DESKTOP)).toBe(false);
  });

  it('keeps the offer on mobile only, and drops it when the user answers', async () => {
    const target = Object.assign(new EventTarget(), { navigator: { userAgent: DESKTOP } });
    watchInstallPrompt(target as unknown as Window);

    target.dispatchEvent(offer());
    expect(installPrompt.value).toBeNull();

    target.navigator.userAgent = ANDROID;
    const accepted = offer();
    target.dispatchEvent(accepted);
    expect(accepted.defaultPrevented).toBe(true);
    expect(installPrompt.value).toBe(accepted);
    await answerInstallPrompt(true);
    expect(accepted.prompt).toHaveBeenCalledOnce();
    expect(installPrompt.value).toBeNull();

    const declined = offer();
    target.dispatchEvent(declined);
    await answerInstallPrompt(false);
    expect(declined.prompt).not.toHaveBeenCalled();
    expect(installPrompt.value).toBeNull();

    target.dispatchEvent(offer());
    target.dispatchEvent(new Event('appinstalled'));
    expect(installPrompt.value).toBeNull();
  });
});
