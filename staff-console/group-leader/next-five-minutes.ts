/** A default start: the next whole five minutes from now, so a meeting "for today" needs no typing. */
export function nextFiveMinutes(now = new Date()): Date {
  const d = new Date(now.getTime() + 5 * 60_000);
  d.setMinutes(Math.ceil(d.getMinutes() / 5) * 5, 0, 0);
  return d;
}
