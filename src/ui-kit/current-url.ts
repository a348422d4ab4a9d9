import { useLocation, useSearch } from 'wouter';

/** The current path with its query, as the guard's redirectUrl and the back logic need it. */
export function useCurrentUrl(): string {
  const [path] = useLocation();
  const search = useSearch();
  return search ? `${path}?${search}` : path;
}

/**
 * Only same-site paths are followed after login: '/x' yes; '//evil.example' or 'https://...' no.
 */
export function safeRedirectPath(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  return value;
}
