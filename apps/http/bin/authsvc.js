#!/usr/bin/env node
// The `authsvc` command (the `bin` of package.json): runs the built server, apps/http/dist, which
// `npm run build` makes. A checked-in file, so the command is executable before anything is built.
import { existsSync } from "node:fs";

const entry = new URL("../dist/main.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("authsvc: not built yet: run 'npm run build' in the repository first\n");
  process.exit(1);
}
await import(entry.href);
