const pad = (n: number) => String(n).padStart(2, '0');

/** 'yyyy-MM-dd HH:mm' in the leader's local time, as the participants' meeting list shows it. */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function formatTime(iso: string): string {
  const d = new Date(iso);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The value of an `<input type="datetime-local">` for a date (local time, minutes). */
export function toLocalInput(date: Date): string {
  return formatDateTime(date.toISOString()).replace(' ', 'T');
}

/** A default start: the next whole five minutes from now, so a meeting "for today" needs no typing. */
export function nextFiveMinutes(now = new Date()): Date {
  const d = new Date(now.getTime() + 5 * 60_000);
  d.setMinutes(Math.ceil(d.getMinutes() / 5) * 5, 0, 0);
  return d;
}
