/**
 * SPEC §4: a login starts from a clean slate: localStorage, sessionStorage and every cookie go,
 * except the assistant's cookies (its public token and state outlive a login).
 */
export function clearClientStorage(): void {
  localStorage.clear();
  sessionStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (!name || name.includes('assistant')) continue;
    const expired = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
    document.cookie = expired;
    // Shared-domain cookies (SPEC §9) are only removed with the domain they were set on.
    const parts = location.hostname.split('.');
    for (let i = 0; i < parts.length - 1; i++) {
      document.cookie = `${expired}; domain=.${parts.slice(i).join('.')}`;
    }
  }
}
