import type { APIRequestContext } from '@playwright/test';
import { staffToken } from './staff-token.ts';

/**
 * The demo group leader, driving a meeting through the staff API (as the staff console would).
 * Every meeting it creates or is told of is removed again when the test ends (the `groupLeader`
 * fixture in support/test.ts), even when the test failed or ran out of time: later specs count the
 * demo group's meetings as participants see them.
 */
export class GroupLeader {
  private token = '';
  private readonly created = new Set<number>();

  constructor(private readonly request: APIRequestContext) {}

  async logIn() {
    this.token = await staffToken(this.request, 'gruppledare', 'gruppledare-losenord');
  }

  private async post(path: string, data: unknown) {
    const res = await this.request.post(`/portal/staff/meetings${path}`, {
      headers: { Authorization: `Bearer ${this.token}`, 'X-App-Variant': 'Gruppstod' },
      data,
    });
    if (!res.ok()) throw new Error(`POST ${path} answered ${res.status()}`);
    return res;
  }

  /** A new meeting of the demo series, starting in an hour; resolves with its id. */
  async createMeeting(subject: string): Promise<number> {
    const res = await this.post('', {
      seriesId: 1,
      subject,
      description: 'En träff för hela gruppen.',
      startDate: new Date(Date.now() + 3600_000).toISOString(),
      duration: 60,
    });
    const { id } = (await res.json()) as { id: number };
    this.created.add(id);
    return id;
  }

  /** A meeting made another way (the console's form), to be removed when the test ends. */
  removeAtEnd(meetingId: number) {
    this.created.add(meetingId);
  }

  /** The meeting's group chat as the server has it (the staff API: staff never use the child's). */
  async chatMessages(meetingId: number): Promise<string[]> {
    const res = await this.request.get(`/portal/staff/meetings/${meetingId}/messages`, {
      headers: { Authorization: `Bearer ${this.token}`, 'X-App-Variant': 'Gruppstod' },
    });
    if (!res.ok()) throw new Error(`GET messages answered ${res.status()}`);
    return ((await res.json()) as { value: Array<{ message: string }> }).value.map((m) => m.message);
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

  /** Clean-up only (the console offers no delete): every meeting this test made, gone again. */
  async removeCreated() {
    for (const meetingId of this.created) await this.deleteMeeting(meetingId);
  }

  private async deleteMeeting(meetingId: number) {
    const res = await this.request.delete(`/portal/staff/meetings/${meetingId}`, {
      headers: { Authorization: `Bearer ${this.token}`, 'X-App-Variant': 'Gruppstod' },
    });
    if (!res.ok()) throw new Error(`DELETE meeting ${meetingId} answered ${res.status()}`);
    this.created.delete(meetingId);
  }
}
