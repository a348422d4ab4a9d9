import { describe, expect, it } from 'vitest';
import {
  appCookieName,
  appCookieString,
  cookieNames,
  cookieValue,
  expiredCookieString,
  namedCookieString,
} from '../../src/ui-kit/app-cookies.ts';

const browser = { hostname: 'bris.se', installed: false };
const installed = { hostname: 'bris.se', installed: true };
const testHost = { hostname: 'test.bris.se', installed: false };

describe('app cookies (SPEC §9)', () => {
  it('are prefixed test_ on test hosts, else pwa_ in the installed app, else web_', () => {
    expect(appCookieName('assistant-state', browser)).toBe('web_assistant-state');
    expect(appCookieName('assistant-state', installed)).toBe('pwa_assistant-state');
    expect(appCookieName('assistant-state', testHost)).toBe('test_assistant-state');
    expect(appCookieName('assistant-state', { hostname: 'test-barn.bris.se', installed: true })).toBe(
      'test_assistant-state',
    );
    expect(appCookieName('assistant-state', { hostname: 'barn.test.bris.se', installed: false })).toBe(
      'test_assistant-state',
    );
  });

  it('are session cookies in the browser and last a year in the installed app, always Secure and Lax', () => {
    expect(appCookieString('assistant-state', 'Active', browser)).toBe(
      'web_assistant-state=Active; Path=/; Secure; SameSite=Lax',
    );
    expect(appCookieString('assistant-state', 'Active', installed)).toBe(
      'pwa_assistant-state=Active; Max-Age=31536000; Path=/; Secure; SameSite=Lax',
    );
    // The lifetime follows the installed app, the prefix the test host.
    expect(appCookieString('x', '1', { hostname: 'test.bris.se', installed: true })).toBe(
      'test_x=1; Max-Age=31536000; Path=/; Secure; SameSite=Lax',
    );
  });

  it('writes a cookie the SPEC names exactly with its own options, unprefixed', () => {
    expect(
      namedCookieString('assistant-token', '%7B%7D', { maxAge: 14_400, secure: true, sameSite: 'None' }),
    ).toBe('assistant-token=%7B%7D; Max-Age=14400; Path=/; Secure; SameSite=None');
    // SameSite=None is only kept by browsers on Secure cookies, so it always gets Secure.
    expect(namedCookieString('n', 'v', { secure: false, sameSite: 'None' })).toBe(
      'n=v; Path=/; Secure; SameSite=None',
    );
    expect(namedCookieString('n', 'v', { secure: false, sameSite: 'Strict' })).toBe(
      'n=v; Path=/; SameSite=Strict',
    );
  });

  it('removes a cookie with Secure on https, where a __Host- cookie is only replaced by a Secure one', () => {
    expect(expiredCookieString('XSRF-TOKEN', { secure: false })).toBe(
      'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/',
    );
    expect(expiredCookieString('__Host-XSRF-TOKEN', { secure: true })).toBe(
      '__Host-XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; Secure',
    );
    expect(expiredCookieString('x', { domain: '.bris.se', secure: true })).toBe(
      'x=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; Secure; domain=.bris.se',
    );
  });

  it('reads the cookie with exactly the asked name', () => {
    const cookies = 'assistant-state=Active; web_assistant-state=Minimized; x=1=2';
    expect(cookieValue(cookies, 'web_assistant-state')).toBe('Minimized');
    expect(cookieValue(cookies, 'assistant-state')).toBe('Active');
    expect(cookieValue(cookies, 'pwa_assistant-state')).toBeUndefined();
    expect(cookieValue(cookies, 'x')).toBe('1=2');
    expect(cookieNames(cookies)).toEqual(['assistant-state', 'web_assistant-state', 'x']);
    expect(cookieNames('')).toEqual([]);
  });
});
