/** Prometheus text as a map from each series (its name with its labels, as printed) to its value. */
export function parseMetrics(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    values.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return values;
}

/** A server's /metrics, as this machine may read it (loopback). */
export async function readMetrics(url: string): Promise<Map<string, number>> {
  return parseMetrics(await (await fetch(`${url}/metrics`)).text());
}
