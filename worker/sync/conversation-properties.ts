import type { RuntimeConfig } from '../../contract/config.ts';
import type { ProfileRow } from '../base/db.ts';
import type { DeviceInfo } from '../base/one-to-one-chat.ts';
import { ageFromBirthYear, conversationGender } from '../../contract/profile.ts';

/**
 * SPEC §3 Conversation properties (child app): age, gender and a device string, sent with a new chat
 * or mail so the counsellor knows who they talk to. Property ids come from the runtime config.
 */
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
    [ids.age]: String(ageFromBirthYear(props[ids.birthYear], now)),
    [ids.gender]: conversationGender(props[ids.gender]),
    [ids.device]: deviceString(device.userAgent, device.platform, device.installed),
  };
}

/**
 * What a new chat or mail carries: the properties from the child app only (SPEC §2, §7), which is
 * the variant with the child feature (Barn); Chatt, Peers, Assistent and the main app send none.
 */
export function propertiesForNewConversation(
  profile: Pick<ProfileRow, 'properties'> | undefined,
  config: Pick<RuntimeConfig, 'propertyIds' | 'features'>,
  device: DeviceInfo,
  now: Date,
): { properties?: Record<string, string> } {
  return config.features.child
    ? { properties: conversationProperties(profile, config.propertyIds, device, now) }
    : {};
}
