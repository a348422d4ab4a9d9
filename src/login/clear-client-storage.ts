import { expireCookie, visibleCookieNames } from '../ui-kit/app-cookies.ts';

/**
 * SPEC §4: a login starts from a clean slate: localStorage, sessionStorage and every cookie go,
 * except the assistant's cookies (its public token and state outlive a login).
 */
export function clearClientStorage(): void {
  localStorage.clear();
  sessionStorage.clear();
  for (const name of visibleCookieNames()) {
    if (name.includes('assistant')) continue;
    expireCookie(name);
    // Shared-domain cookies (SPEC §9) are only removed with the domain they were set on.
    const parts = location.hostname.split('.');
    for (let i = 0; i < parts.length - 1; i++) expireCookie(name, `.${parts.slice(i).join('.')}`);
  }
}
