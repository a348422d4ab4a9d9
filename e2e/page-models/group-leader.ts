import type { APIRequestContext } from '@playwright/test';

/** The demo group leader, driving a meeting through the staff API (as the staff console would). */
export class GroupLeader {
  private token = '';

  constructor(private readonly request: APIRequestContext) {}

  async logIn() {
    const res = await this.request.post('/connect/token', {
      form: {
        grant_type: 'password',
        client_id: 'portal-staff',
        scope: 'openid profile portal offline_access',
        username: 'gruppledare',
        password: 'gruppledare-losenord',
        portalId: 'portal',
      },
    });
    if (!res.ok()) throw new Error(`leader login failed: ${res.status()}`);
    this.token = ((await res.json()) as { access_token: string }).access_token;
  }

  private async post(path: string, data: unknown) {
    const res = await this.request.post(`/portal/staff/meetings${path}`, {
      headers: { Authorization: `Bearer ${this.token}`, 'X-App-Variant': 'Gruppstod' },
      data,
    });
    if (!res.ok()) throw new Error(`POST ${path} answered ${res.status()}`);
    return res;
  }

  startMeeting(meetingId: number) {
    return this.post(`/${meetingId}/start`, {});
  }

  write(meetingId: number, content: string) {
    return this.post(`/${meetingId}/messages`, { content });
  }

  endMeeting(meetingId: number) {
    return this.post(`/${meetingId}/end`, {});
  }
}
