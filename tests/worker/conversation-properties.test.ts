import { describe, expect, it } from 'vitest';
import {
  conversationProperties,
  deviceString,
  propertiesForNewConversation,
} from '../../worker/sync/conversation-properties.ts';
import { APP_VARIANTS, VARIANT_FEATURES } from '../../contract/variant.ts';
import { ageFromBirthYear, conversationGender, userAuthorLabel } from '../../contract/profile.ts';

const IDS = {
  consentDate: 'consentDate',
  gender: 'gender',
  birthYear: 'birthYear',
  device: 'device',
  age: 'age',
};
const NOW = new Date('2026-11-22T12:00:00Z');
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86';

describe('conversation properties (SPEC §3, child app)', () => {
  it('maps gender to female, male, non-binary or x', () => {
    expect(['female', 'male', 'non-binary', 'annat', undefined].map(conversationGender)).toEqual([
      'female',
      'male',
      'non-binary',
      'x',
      'x',
    ]);
  });

  it('counts the age from the birth year, 0 when unknown', () => {
    expect(ageFromBirthYear('2012', NOW)).toBe(14);
    expect(ageFromBirthYear(undefined, NOW)).toBe(0);
    expect(ageFromBirthYear('not a year', NOW)).toBe(0);
    expect(ageFromBirthYear('2030', NOW)).toBe(0);
  });

  it("labels a child's messages 'Tjej', 'Kille', 'Icke-binär' or 'Vill inte välja', with the age when known", () => {
    expect(userAuthorLabel('female', 14)).toBe('Tjej, 14 år');
    expect(userAuthorLabel('male', 9)).toBe('Kille, 9 år');
    expect(userAuthorLabel('non-binary', 0)).toBe('Icke-binär');
    expect(userAuthorLabel('x', 17)).toBe('Vill inte välja, 17 år');
    expect(userAuthorLabel('something else', 0)).toBe('Vill inte välja');
    expect(userAuthorLabel(undefined, 12)).toBe('Vill inte välja, 12 år');
  });

  it('describes the device with form, OS, platform, browser, version and the PWA flag', () => {
    expect(deviceString(IPHONE, 'iPhone', true)).toBe('Mobile, iOS, iPhone, Safari, 17.5, PWA: Ja');
    expect(deviceString(WINDOWS, 'Win32', false)).toBe(
      'Desktop, Windows, Win32, Edge, 131.0.2903.86, PWA: Nej',
    );
    expect(deviceString('curl/8.5', '', false)).toBe('Desktop, Okänt, Okänd, Okänd webbläsare, PWA: Nej');
  });

  it('builds the properties under the runtime config ids', () => {
    expect(
      conversationProperties(
        { properties: { birthYear: '2010', gender: 'male' } },
        IDS,
        {
          userAgent: WINDOWS,
          platform: 'Win32',
          installed: false,
        },
        NOW,
      ),
    ).toEqual({
      age: '16',
      gender: 'male',
      device: 'Desktop, Windows, Win32, Edge, 131.0.2903.86, PWA: Nej',
    });
  });

  it('goes with a new chat or mail from the child app only, the variant with the child feature (SPEC §2, §7)', () => {
    const profile = { properties: { birthYear: '2012', gender: 'female' } };
    const device = { userAgent: IPHONE, platform: 'iPhone', installed: false };
    const sent = APP_VARIANTS.filter(
      (variant) =>
        propertiesForNewConversation(
          profile,
          { propertyIds: IDS, features: VARIANT_FEATURES[variant] },
          device,
          NOW,
        ).properties !== undefined,
    );
    expect(sent).toEqual(['Barn']);
    expect(
      propertiesForNewConversation(
        profile,
        { propertyIds: IDS, features: VARIANT_FEATURES.Barn },
        device,
        NOW,
      ).properties,
    ).toMatchObject({ age: '14', gender: 'female' });
  });
});
