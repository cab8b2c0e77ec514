// Spawned by bench/mail-burst.ts: the unrelated client whose admin reads are timed. It runs in its own
// process so that its timings are not the burst generator's (or the SMTP sink's) event-loop delay.
// Reads `GET /admin/users?per_page=10` one after another while a phase is set; each stdin line sets the
// phase ("" pauses), and "end" makes it print {phase: [ms, ...], "phase@": [start, ...]} (durations,
// and when each read began in ms since the epoch) as one JSON line and exit.
import { createInterface } from "node:readline";

const [url, serviceKey] = process.argv.slice(2);
const samples = {};
let phase = "";
let ended = false;
let read = 0;
let wake = () => {};

createInterface({ input: process.stdin }).on("line", (line) => {
  if (line === "end") ended = true;
  else phase = line;
  wake();
});

while (!ended) {
  if (phase === "") {
    await new Promise((resolve) => {
      wake = resolve;
    });
    continue;
  }
  const tag = phase;
  const started = performance.now();
  const res = await fetch(`${url}/admin/users?per_page=10`, {
    headers: { authorization: `Bearer ${serviceKey}`, "x-bench-id": `${tag}-${read++}` },
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`admin read answered ${res.status}`);
  const ms = performance.now() - started;
  samples[tag] = [...(samples[tag] ?? []), ms];
  samples[`${tag}@`] = [...(samples[`${tag}@`] ?? []), Math.round(performance.timeOrigin + started)];
}
process.stdout.write(`${JSON.stringify(samples)}\n`, () => process.exit(0)); // stdin stays open
