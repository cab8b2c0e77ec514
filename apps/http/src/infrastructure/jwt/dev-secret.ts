import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { DEV_JWT_SECRET_FILE } from "./section.js";

/**
 * The embedded mode's JWT secret: generated once (256 bits from the CSPRNG) and kept in the data
 * directory, so tokens survive a restart. Only ever used when no `JWT_SECRET` is configured and no
 * `DATABASE_URL` is set, i.e. on a developer's machine.
 */
export function ensureDevSecret(dataDir: string): string {
  const path = join(dataDir, DEV_JWT_SECRET_FILE);
  try {
    const existing = readFileSync(path, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  // The data folder is its owner's alone (docs/operations.md), also when made here first.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(path, `${secret}\n`, { mode: 0o600 });
  return secret;
}
