/** The sum of the samples of `name` whose labels include `labels`, in a Prometheus text exposition. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  let total: number | undefined;
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => present[key] === value)) {
      total = (total ?? 0) + Number(match[3]);
    }
  }
  return total;
}

/** Reads the exposition served at `url`. */
export async function scrape(url: string): Promise<string> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`scrape of ${url} answered ${res.status}`);
  return res.text();
}
