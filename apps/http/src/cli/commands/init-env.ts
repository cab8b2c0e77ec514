import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { assignment } from "./env-file.js";
import { keysCommand } from "./key-sets.js";

/** What `authsvc init` asks for: the variables PostgreSQL mode requires. */
export const INIT_QUESTIONS = [
  {
    flag: "database-url",
    name: "AUTHSVC_DATABASE_URL",
    prompt: "PostgreSQL URL (postgres://user:password@host:5432/db)",
  },
  {
    flag: "site-url",
    name: "AUTHSVC_SITE_URL",
    prompt: "URL of your site (email links and redirects go there)",
  },
  {
    flag: "api-external-url",
    name: "AUTHSVC_API_EXTERNAL_URL",
    prompt: "URL at which clients reach authsvc",
  },
] as const;

export type InitFlag = (typeof INIT_QUESTIONS)[number]["flag"];

export interface InitOptions {
  readonly answers: Partial<Record<InitFlag, string>>;
  readonly file: string;
  readonly force: boolean;
  /** A key set (`--keys`): this algorithm signs, the secret is kept as a verify-only key. */
  readonly keys?: string;
}

export const INIT_USAGE = `usage: authsvc init [--database-url <url>] [--site-url <url>] [--api-external-url <url>]
                    [--keys [--alg ES256|RS256|EdDSA|…]] [--file .env] [--force]

Writes a .env for PostgreSQL mode: the three required URLs (asked for on a terminal when not given
as flags) and a fresh AUTHSVC_JWT_SECRET; with --keys also AUTHSVC_JWT_KEYS, an asymmetric signing
key (ES256 unless --alg) with the secret kept as a verify-only HS256 key. An existing file is never
overwritten without --force. Then: 'authsvc migrate', 'authsvc serve', 'authsvc api-keys'.`;

export function parseInitArgs(args: readonly string[]): InitOptions | { error: string } {
  try {
    const { values } = parseArgs({
      args: [...args],
      options: {
        "database-url": { type: "string" },
        "site-url": { type: "string" },
        "api-external-url": { type: "string" },
        keys: { type: "boolean" },
        alg: { type: "string" },
        file: { type: "string" },
        force: { type: "boolean" },
      },
      strict: true,
    });
    if (values.alg !== undefined && !values.keys) return { error: "--alg goes with --keys" };
    const answers: Partial<Record<InitFlag, string>> = {};
    for (const { flag } of INIT_QUESTIONS) if (values[flag] !== undefined) answers[flag] = values[flag];
    return {
      answers,
      file: values.file ?? ".env",
      force: values.force ?? false,
      ...(values.keys ? { keys: values.alg ?? "ES256" } : {}),
    };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** Why `value` cannot answer `flag`, or null. */
export function answerProblem(flag: InitFlag, value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `--${flag}: not a URL`;
  }
  if (flag === "database-url")
    return /^postgres(ql)?:$/.test(url.protocol)
      ? null
      : `--${flag}: must start with postgres:// or postgresql://`;
  return /^https?:$/.test(url.protocol) ? null : `--${flag}: must be an http or https URL`;
}

/** The `.env` text for `answers` (each checked by `answerProblem`), with fresh secrets. */
export function initEnv(
  answers: Record<InitFlag, string>,
  keys?: string,
  secret = randomBytes(48).toString("base64url"),
): string {
  const lines = [
    "# authsvc configuration, written by 'authsvc init'. Every variable: docs/configuration.md.",
    "# It holds secrets: keep it out of version control, readable by the server's user only.",
    ...INIT_QUESTIONS.map(({ flag, name }) => assignment(name, answers[flag])),
    "# Keys the hashes of one-time and refresh tokens, and signs tokens unless AUTHSVC_JWT_KEYS is set.",
    assignment("AUTHSVC_JWT_SECRET", secret),
  ];
  if (keys !== undefined) {
    const outcome = keysCommand(["--alg", keys], {}, secret);
    if (!outcome.ok) throw new Error(outcome.error);
    lines.push(
      "# Signing keys ('authsvc keys --write .env' rotates them; docs/signing-keys.md).",
      assignment("AUTHSVC_JWT_KEYS", outcome.output.trim()),
    );
  }
  return `${lines.join("\n")}\n`;
}
