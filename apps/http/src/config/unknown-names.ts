/**
 * Warnings for variables that look meant for this server but are not read: an `AUTHSVC_` name that is
 * no variable (a typo such as `AUTHSVC_JWT_SECERT` leaves the setting at its default without a word),
 * and a reference server's `GOTRUE_` name (configuration copied from a GoTrue deployment). Names only:
 * a value may be a secret.
 */

import { PREFIX } from "./variable.js";

const GOTRUE_PREFIX = "GOTRUE_";

/**
 * The optimal-string-alignment distance of `a` and `b`: insertions, deletions, substitutions and
 * swaps of two neighbours each count one, so `SECERT` is one step from `SECRET`.
 */
export function editDistance(a: string, b: string): number {
  // rows[i][j]: the distance of a's first i characters and b's first j.
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The known name nearest to `name`, when it is near enough to be what was meant: at most 3 edits,
 * and fewer than a third of the name's length past the prefix (a short name is not "near" anything
 * just because every short name is). Ties go to the first name in `known`'s order.
 */
export function nearestName(name: string, known: Iterable<string>): string | undefined {
  const limit = Math.min(3, Math.ceil((name.length - PREFIX.length) / 3) - 1);
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(name, candidate);
    if (distance <= limit && (best === undefined || distance < best.distance)) {
      best = { name: candidate, distance };
    }
  }
  return best?.name;
}

/**
 * One warning per set variable named `AUTHSVC_…` that is not read — naming the nearest known name
 * when one is near — and per `GOTRUE_…` variable, naming its `AUTHSVC_` equivalent (the same name with
 * our prefix) when there is one.
 * Names that `skip` accepts are left out (another check already reports them).
 */
export function unknownNameWarnings(
  vars: Readonly<Record<string, string | undefined>>,
  known: ReadonlySet<string>,
  skip: (name: string) => boolean = () => false,
): string[] {
  const ours = [...known].filter((name) => name.startsWith(PREFIX));
  const warnings: string[] = [];
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined || value.trim() === "" || known.has(name) || skip(name)) continue;
    if (name.startsWith(PREFIX)) {
      const nearest = nearestName(name, ours);
      warnings.push(
        `${name} is not a variable of this server and is ignored${nearest ? `; did you mean ${nearest}?` : ""}`,
      );
    } else if (name.startsWith(GOTRUE_PREFIX)) {
      const renamed = `${PREFIX}${name.slice(GOTRUE_PREFIX.length)}`;
      // A GoTrue name is the reference's spelling, not a typo: a near name is another setting
      // (LOG_FIELDS is two edits from LOG_FILE, TWITTER from TWITCH), so only the same name counts.
      const equivalent = known.has(renamed) ? renamed : undefined;
      warnings.push(
        equivalent
          ? `${name} is not read (GoTrue's name): set ${equivalent} instead`
          : `${name} is not read (GoTrue's name), and this server has no equivalent of it`,
      );
    }
  }
  return warnings;
}
