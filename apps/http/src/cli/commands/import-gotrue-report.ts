import type { ImportSummary, StepProgress } from "@authsvc/adapters";

const number = (n: number) => n.toLocaleString("en-US");

/** The progress line: rewritten in place on a terminal, at most every 200 ms and at each step's end. */
export function progressLine(stream: NodeJS.WriteStream): (progress: StepProgress) => void {
  let last = 0;
  return ({ step, done, total }) => {
    const now = Date.now();
    const finished = done >= total;
    if (!finished && now - last < 200) return;
    last = now;
    const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
    const width = 24;
    const filled = Math.round((percent / 100) * width);
    const bar = `${"#".repeat(filled)}${"-".repeat(width - filled)}`;
    stream.write(`\r\x1b[2K${step.padEnd(18)} [${bar}] ${percent}% ${number(done)}/${number(total)}`);
    if (finished) stream.write("\n");
  };
}

/** The summary printed at the end of a run: one row per table, what was left out, what was refused. */
export function summaryText(summary: ImportSummary): string {
  const rows = summary.steps.map((s) => [
    s.name,
    number(s.counts.read),
    number(s.counts.inserted),
    number(s.counts.updated),
    number(s.counts.unchanged),
    number(s.counts.rejected),
    s.seconds.toFixed(1),
  ]);
  const header = ["table", "read", "inserted", "updated", "unchanged", "rejected", "seconds"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) =>
    `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join("  ")}`;
  const read = summary.steps.reduce((sum, s) => sum + s.counts.read, 0);
  const rate = summary.seconds > 0 ? Math.round(read / summary.seconds) : read;
  const out = [
    `import-gotrue: ${number(read)} rows read in ${summary.seconds.toFixed(1)} s (${number(rate)} rows/s)`,
    line(header),
    ...rows.map(line),
  ];
  for (const s of summary.steps) {
    if (s.leftOut) out.push(`  left out: ${number(s.leftOut.count)} ${s.leftOut.why}`);
  }
  if (summary.rejectedTotal > 0) {
    out.push(
      `  refused by the target: ${number(summary.rejectedTotal)} ${summary.rejectedTotal === 1 ? "row" : "rows"}`,
    );
    for (const r of summary.rejections) out.push(`    ${r.table} ${r.id}: ${r.reason}`);
    if (summary.rejectedTotal > summary.rejections.length) {
      out.push(`    … and ${number(summary.rejectedTotal - summary.rejections.length)} more`);
    }
  }
  return `${out.join("\n")}\n`;
}
