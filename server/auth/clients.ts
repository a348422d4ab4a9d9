/** Public OAuth clients this auth server knows: the child app and the staff console. */
export const CLIENTS = {
  'portal-web': { allowedRoles: ['child', 'participant'] },
  'portal-staff': { allowedRoles: ['counsellor', 'group_leader', 'admin'] },
} as const;
export type ClientId = keyof typeof CLIENTS;

/** `Object.hasOwn`, so `toString` and friends are no client. */
export const isClientId = (value: unknown): value is ClientId =>
  typeof value === 'string' && Object.hasOwn(CLIENTS, value);

export const ALLOWED_SCOPES = ['openid', 'profile', 'portal', 'offline_access'] as const;
