// Preloaded into the server by bench/mail-burst.ts (node --import): on SIGUSR2 it appends the event
// loop's delay and the process's CPU time since the previous signal to LOOP_DELAY_FILE, one JSON line.
import { appendFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

const file = process.env.LOOP_DELAY_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  let cpu = process.cpuUsage();
  process.on("SIGUSR2", () => {
    const used = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    const ms = (ns) => Math.round(ns / 1e4) / 100;
    appendFileSync(
      file,
      `${JSON.stringify({
        p50: ms(histogram.percentile(50)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
        cpuMs: Math.round((used.user + used.system) / 1000),
      })}\n`,
    );
    histogram.reset();
  });
}
