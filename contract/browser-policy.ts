/**
 * The one Trusted Types policy the pages create (client-kit/security/trusted-types.ts) and the
 * server's Content-Security-Policy names (server/security/browser-policy.ts).
 */
export const TRUSTED_TYPES_POLICY = 'portal';
