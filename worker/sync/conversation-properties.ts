import type { RuntimeConfig } from '../../contract/config.ts';
import type { ProfileRow } from '../client/db.ts';
import type { DeviceInfo } from '../client/one-to-one-chat.ts';

/**
 * SPEC §3 Conversation properties (child app): age, gender and a device string, sent with a new chat
 * or mail so the counsellor knows who they talk to. Property ids come from the runtime config.
 */
export type ConversationGender = 'female' | 'male' | 'non-binary' | 'x';

export function conversationGender(value: string | undefined): ConversationGender {
  return value === 'female' || value === 'male' || value === 'non-binary' ? value : 'x';
}

/** Current year minus birth year; 0 when the birth year is unknown. */
export function ageOf(birthYear: string | undefined, now: Date): number {
  const year = Number(birthYear);
  return Number.isInteger(year) && year > 1900 && year <= now.getFullYear() ? now.getFullYear() - year : 0;
}

const BROWSERS: [RegExp, string][] = [
  [/Edg\/([\d.]+)/, 'Edge'],
  [/SamsungBrowser\/([\d.]+)/, 'Samsung Internet'],
  [/Firefox\/([\d.]+)/, 'Firefox'],
  [/(?:Chrome|CriOS)\/([\d.]+)/, 'Chrome'],
  [/Version\/([\d.]+).*Safari/, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/** 'Mobile, Android, Linux armv8l, Chrome 120.0, PWA: Ja' (form, OS, platform, browser, version, PWA). */
export function deviceString(userAgent: string, platform: string, installed: boolean): string {
  const mobile = /Mobi|Android|iPhone|iPad|iPod/.test(userAgent) ? 'Mobile' : 'Desktop';
  const os = SYSTEMS.find(([re]) => re.test(userAgent))?.[1] ?? 'Okänt';
  const browser = BROWSERS.map(([re, name]) => [userAgent.match(re), name] as const).find(([m]) => m);
  const browserText = browser ? `${browser[1]}, ${browser[0]?.[1] ?? ''}` : 'Okänd webbläsare';
  return `${mobile}, ${os}, ${platform || 'Okänd'}, ${browserText}, PWA: ${installed ? 'Ja' : 'Nej'}`;
}

export type { DeviceInfo };

export function conversationProperties(
  profile: Pick<ProfileRow, 'properties'> | undefined,
  ids: RuntimeConfig['propertyIds'],
  device: DeviceInfo,
  now: Date,
): Record<string, string> {
  const props = profile?.properties ?? {};
  return {
    [ids.age]: String(ageOf(props[ids.birthYear], now)),
    [ids.gender]: conversationGender(props[ids.gender]),
    [ids.device]: deviceString(device.userAgent, device.platform, device.installed),
  };
}
