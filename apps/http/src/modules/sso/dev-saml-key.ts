import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEV_SAML_KEY_FILE } from "./section.js";

/**
 * The embedded mode's SAML service provider key: a 2048-bit RSA key generated once and kept in the
 * data directory (base64 PKCS#1 DER, as `SAML_PRIVATE_KEY` takes it), so the certificate identity
 * providers registered survives a restart. Only used with no `SAML_PRIVATE_KEY` and no `DATABASE_URL`.
 */
export function ensureDevSamlKey(dataDir: string): string {
  const path = join(dataDir, DEV_SAML_KEY_FILE);
  try {
    const existing = readFileSync(path, "utf8").trim();
    if (existing !== "") return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  // The data folder is its owner's alone (docs/operations.md), also when made here first.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, publicExponent: 65537 });
  const key = privateKey.export({ format: "der", type: "pkcs1" }).toString("base64");
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
  return key;
}
