/**
 * PostgreSQL's timestamps reach from 4713 BC to 294276 AD and include `infinity` and `-infinity`; a
 * JavaScript Date holds ±275760 years and no infinity (it becomes an Invalid Date, whose
 * `toISOString` throws), and RFC 3339, which every client parses, only four-digit years. A stored
 * time outside 0001-01-01 … 9999-12-31 (written by hand, or by another system) is read as the nearest
 * end of that range: a ban until `infinity` stays a ban, one until `-infinity` stays over, and every
 * answer showing it can still be written.
 */
export const EARLIEST_TIME = "0001-01-01T00:00:00.000Z";
export const LATEST_TIME = "9999-12-31T23:59:59.999Z";

const earliest = Date.parse(EARLIEST_TIME);
const latest = Date.parse(LATEST_TIME);

/** A date within 0001-01-01 … 9999-12-31 (an Invalid Date, whose side is unknown, as the latest). */
export function clampDate(date: Date): Date {
  const time = date.getTime();
  if (Number.isNaN(time) || time > latest) return new Date(latest);
  if (time < earliest) return new Date(earliest);
  return date;
}

// A year of five digits or more, `infinity`; or before year 1: `-infinity`, a negative ISO year
// (JSON's spelling of BC) or the text format's " BC".
const AFTER_YEAR_9999 = /^\+?(\d{5,}-|infinity$)/;
const BEFORE_YEAR_1 = /^-|\sBC$/;

/** A timestamp as PostgreSQL spells it (text format or JSON), as a Date within the range above. */
export function timestampFromPostgres(text: string): Date {
  if (AFTER_YEAR_9999.test(text)) return new Date(latest);
  if (BEFORE_YEAR_1.test(text)) return new Date(earliest);
  return clampDate(new Date(text));
}
