import { isTestHost } from '../config/variant.ts';
import { installedAsApp } from './installed-as-app.ts';
import { cookieValues } from '../../contract/cookie-header.ts';

/**
 * SPEC §9 Cookies: "prefixes web_, pwa_, test_; PWA cookies expire after one year; shared-domain
 * cookies secure, SameSite Lax". Every cookie the app writes goes through this module.
 *
 * - The app's own cookies are named with a prefix: `test_` on test hosts, else `pwa_` in the installed
 *   app, else `web_`; reading looks for the same prefixed name.
 * - In the browser they are session cookies (SPEC §4 keeps the assistant state in a session cookie).
 *   In the installed app they last one year: an installed app's "session" ends whenever the operating
 *   system closes it (often soon after it goes to the background), so a session cookie would forget
 *   the child's state many times a day; SPEC §9 gives PWA cookies one year instead.
 * - Every app cookie is `Path=/; Secure; SameSite=Lax`.
 * - Cookies whose name and attributes the SPEC fixes (the `assistant-token` cookie: exact name,
 *   14400 s, SameSite=None) are written with `writeNamedCookie` and their explicit options.
 */

/** SPEC §9: one year, in seconds. */
export const PWA_COOKIE_SECONDS = 31_536_000;

/** Where the app runs, which decides the prefix and the lifetime of its cookies. */
export interface CookieContext {
  hostname: string;
  installed: boolean;
}

export type AppCookiePrefix = 'test_' | 'pwa_' | 'web_';

export function currentCookieContext(): CookieContext {
  return { hostname: location.hostname, installed: installedAsApp() };
}

export function appCookiePrefix(context: CookieContext): AppCookiePrefix {
  if (isTestHost(context.hostname)) return 'test_';
  return context.installed ? 'pwa_' : 'web_';
}

/** The name an app cookie has where the app runs, e.g. `web_assistant-state`. */
export function appCookieName(name: string, context: CookieContext = currentCookieContext()): string {
  return `${appCookiePrefix(context)}${name}`;
}

/** Options of a cookie whose name and attributes are fixed elsewhere (the SPEC). */
export interface NamedCookieOptions {
  /** Lifetime in seconds; none makes a session cookie. */
  maxAge?: number;
  sameSite: 'Lax' | 'Strict' | 'None';
  secure: boolean;
}

/** The `document.cookie` assignment for a cookie with exactly this name and these options. */
export function namedCookieString(name: string, value: string, options: NamedCookieOptions): string {
  return [
    `${name}=${value}`,
    ...(options.maxAge === undefined ? [] : [`Max-Age=${options.maxAge}`]),
    'Path=/',
    ...(options.secure || options.sameSite === 'None' ? ['Secure'] : []),
    `SameSite=${options.sameSite}`,
  ].join('; ');
}

/** The `document.cookie` assignment for an app cookie: prefixed, Secure, Lax, one year in the app. */
export function appCookieString(
  name: string,
  value: string,
  context: CookieContext = currentCookieContext(),
): string {
  return namedCookieString(appCookieName(name, context), value, {
    ...(context.installed ? { maxAge: PWA_COOKIE_SECONDS } : {}),
    sameSite: 'Lax',
    secure: true,
  });
}

/** The value of the cookie named exactly `name` in a `document.cookie` string, if there is one. */
export function cookieValue(cookies: string, name: string): string | undefined {
  return cookieValues(cookies, name)[0];
}

/** The names of the cookies in a `document.cookie` string. */
export function cookieNames(cookies: string): string[] {
  return cookies
    .split(';')
    .map((c) => c.split('=')[0]?.trim() ?? '')
    .filter((name) => name !== '');
}

export function writeAppCookie(name: string, value: string): void {
  document.cookie = appCookieString(name, value);
}

export function readAppCookie(name: string): string | undefined {
  return cookieValue(document.cookie, appCookieName(name));
}

export function writeNamedCookie(name: string, value: string, options: NamedCookieOptions): void {
  document.cookie = namedCookieString(name, value, options);
}

export function readNamedCookie(name: string): string | undefined {
  return cookieValue(document.cookie, name);
}

/** Every cookie's name that this page can see. */
export function visibleCookieNames(): string[] {
  return cookieNames(document.cookie);
}

/**
 * The `document.cookie` assignment that removes a cookie, on this host or (for shared-domain
 * cookies) on the given domain. On https it says `Secure`: a browser replaces a `__Host-` cookie
 * (the server's anti-forgery cookie there) only with one that does.
 */
export function expiredCookieString(name: string, options: { domain?: string; secure: boolean }): string {
  return [
    `${name}=`,
    'expires=Thu, 01 Jan 1970 00:00:00 GMT',
    'path=/',
    ...(options.secure ? ['Secure'] : []),
    ...(options.domain ? [`domain=${options.domain}`] : []),
  ].join('; ');
}

/** Removes a cookie, on this host or (for shared-domain cookies) on the given domain. */
export function expireCookie(name: string, domain?: string): void {
  document.cookie = expiredCookieString(name, {
    ...(domain ? { domain } : {}),
    secure: location.protocol === 'https:',
  });
}
