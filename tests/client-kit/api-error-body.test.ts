import { describe, expect, it } from 'vitest';
import { apiErrorBodyOf } from '../../client-kit/http/api-error-body.ts';
import { startTestServer } from '../../harness/test-server.ts';

describe('the { error, message } body of a failed call', () => {
  it('reads the code and the Swedish text the server answers with', async () => {
    const server = await startTestServer();
    try {
      const res = await fetch(`${server.url}/portal/staff/queue`, { headers: { 'X-App-Variant': 'Barn' } });
      expect(res.status).toBe(401);
      expect(apiErrorBodyOf(await res.json())).toEqual({
        error: 'unauthorized',
        message: 'Du behöver logga in igen.',
      });
    } finally {
      await server.dispose();
    }
  });

  it('is null for anything else', () => {
    expect(apiErrorBodyOf('Conflict')).toBeNull();
    expect(apiErrorBodyOf(null)).toBeNull();
    expect(apiErrorBodyOf({ message: 'utan kod' })).toBeNull();
    expect(apiErrorBodyOf({ error: 'conflict', message: 42 })).toBeNull();
  });
});
