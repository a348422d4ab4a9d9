import type { PublicEntry } from './walk-entry.ts';

/** Routes anyone may call, each with the reason it needs no token. */
export const PUBLIC_ROUTES: PublicEntry[] = [
  {
    route: 'GET /.well-known/openid-configuration',
    server: 'barn',
    public: 'OpenID discovery: the client reads it before anyone has logged in',
    call: () => ({ path: '/.well-known/openid-configuration' }),
    status: 200,
  },
  {
    route: 'GET /.well-known/openid-configuration/jwks',
    server: 'barn',
    public: 'the public halves of the signing keys, for verifying tokens',
    call: () => ({ path: '/.well-known/openid-configuration/jwks' }),
    status: 200,
  },
  {
    route: 'POST /connect/token',
    server: 'barn',
    public: 'the login itself: credentials or a refresh token take the place of a token',
    call: () => ({
      path: '/connect/token',
      urlencoded: {
        grant_type: 'password',
        client_id: 'portal-web',
        username: 'demo',
        password: 'demo-losenord',
      },
    }),
    status: 200,
  },
  {
    route: 'POST /connect/revocation',
    server: 'barn',
    public: 'RFC 7009: a public client revokes with its client_id and the token; unknown tokens answer 200',
    call: () => ({
      path: '/connect/revocation',
      urlencoded: { token: 'not-a-token', client_id: 'portal-web' },
    }),
    status: 200,
  },
  {
    route: 'GET /config.json',
    server: 'barn',
    public: 'runtime config the client reads at boot, before login',
    call: () => ({ path: '/config.json' }),
    status: 200,
  },
  {
    route: 'GET /portal/antiforgery',
    server: 'barn',
    public: "SPEC §7's anti-forgery value: a browser's own cookie, needed before its first write",
    call: () => ({ path: '/portal/antiforgery' }),
    status: 200,
  },
  {
    route: 'GET /healthz',
    server: 'barn',
    public: 'load balancer health check; answers only ok or unavailable',
    call: () => ({ path: '/healthz' }),
    status: 200,
  },
  {
    route: 'GET /metrics',
    server: 'barn',
    public: 'Prometheus scrape: counts and durations per route template, no user data',
    call: () => ({ path: '/metrics' }),
    status: 200,
  },
  {
    route: 'POST /portal/api/accounts/registercontact',
    server: 'barn',
    public: 'creating an account happens before there is one (limited per address)',
    call: () => ({
      path: '/portal/api/accounts/registercontact',
      json: { username: 'walk-public', password: 'walk-losenord-4', properties: {} },
    }),
    status: 201,
  },
  {
    route: 'POST /portal/api/accounts/verifyusername',
    server: 'barn',
    public: 'the registration form asks whether a username is free; it answers only { available }',
    call: () => ({ path: '/portal/api/accounts/verifyusername', json: { username: 'walk-owner' } }),
    status: 200,
  },
  {
    route: 'GET /',
    server: 'barn',
    public: 'the built client (index.html)',
    call: () => ({ path: '/' }),
    status: 200,
    onlyWithClient: true,
  },
  {
    route: 'GET /*',
    server: 'barn',
    public: 'static files of the built client',
    call: () => ({ path: '/manifest.webmanifest' }),
    status: 200,
    onlyWithClient: true,
  },
];
