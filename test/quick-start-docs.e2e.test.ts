import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTHSVC_BIN } from "./support/cli.js";
import { parseSteps, pick, type Step, shapeDifferences } from "./support/doc-requests.js";
import { freePort } from "./support/free-port.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * README.md and docs/first-requests.md, run as a new user runs them: the server started as the quick
 * start says (embedded mode, a fresh folder, mail and text messages in its log), then every command of
 * the two pages in order, in a shell, each of which must exit 0, and each `curl` whose answer a page
 * shows must get that status, those headers and that body shape. The folder has the `authsvc` command
 * linked as an installed package would have it, so `npx authsvc …` runs the build under test and never
 * the registry. The pages' port 8081 is replaced by a free one (`AUTHSVC_API_PORT`), so that runs do
 * not collide.
 */
const PAGES = ["README.md", "docs/first-requests.md"];
const steps = PAGES.flatMap((page) =>
  parseSteps(readFileSync(new URL(`../${page}`, import.meta.url), "utf8")).map((step) => ({ page, step })),
);

/** Why a command is not run here; a page marks it `<!-- not run: <reason> … -->`. Keep this list short. */
const NOT_RUN: Record<string, string> = {
  server:
    "starts the server, which this test does itself as `npm start` runs it after building: the built server in a fresh folder",
  package: "installs the packed tarball: test/package-install.e2e.test.ts packs, installs and serves it",
  "postgres-server": "serves on the PostgreSQL the example URL names, which does not exist here",
  "test-suite": "runs the test suites, this one among them",
};

const root = mkdtempSync(join(tmpdir(), "authsvc-quick-start-"));
let port = 0;
let server: ServerProcess;
/** The shell's exported variables, carried from one command to the next as a terminal would. */
let vars: Record<string, string> = {};
const folders = new Map<number, string>();
const seen = new Map<string, number>();

/** A folder where `npx authsvc` finds the command, as after `npm install ./authsvc-<version>.tgz`. */
function folderWithCommand(name: string): string {
  const folder = join(root, name);
  mkdirSync(join(folder, "node_modules", ".bin"), { recursive: true });
  symlinkSync(AUTHSVC_BIN, join(folder, "node_modules", ".bin", "authsvc"));
  return folder;
}

beforeAll(async () => {
  port = await freePort();
  folders.set(0, folderWithCommand("app"));
  server = await startServer({ AUTHSVC_API_PORT: String(port) }, { cwd: folders.get(0) ?? "" });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one command in bash with the shell's variables; `set -eu`, so a failing part fails it. */
function run(command: string, folder: number): Promise<Ran> {
  let cwd = folders.get(folder);
  if (cwd === undefined) {
    cwd = folderWithCommand(`folder-${folder}`);
    folders.set(folder, cwd);
  }
  const envFile = join(root, "env-after");
  const script = [
    "set -euo pipefail",
    `trap 'env -0 > "${envFile}"' EXIT`,
    'curl() { command curl -sS -i "$@"; }',
    command.replaceAll("localhost:8081", `localhost:${port}`),
  ].join("\n");
  return new Promise((resolve) => {
    execFile(
      "bash",
      ["-c", script],
      {
        cwd,
        // npm never fetches a package here: `npx authsvc` must find the linked command.
        env: {
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? root,
          npm_config_yes: "false",
          ...vars,
        },
        // npx alone starts npm, which takes seconds on a busy machine.
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        if (code === 0) vars = exported(readFileSync(envFile, "utf8"));
        resolve({ code, stdout, stderr: error?.killed ? `${stderr}\n(killed after 60 s)` : stderr });
      },
    );
  });
}

/** The variables a command left exported, but the shell's own. */
function exported(envText: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of envText.split("\0")) {
    const at = entry.indexOf("=");
    const name = entry.slice(0, at);
    if (at > 0 && !["PWD", "OLDPWD", "SHLVL", "_", "PATH", "HOME", "npm_config_yes"].includes(name))
      out[name] = entry.slice(at + 1);
  }
  return out;
}

/** `curl -i`'s output: the last status line and headers (after any interim ones), and the body. */
function answerOf(stdout: string): { status: number; headers: Headers; body: unknown } {
  const parts = stdout.split("\r\n\r\n");
  let head = parts.shift() ?? "";
  while (/^HTTP\/[\d.]+ 1\d\d/.test(head) && parts.length > 0) head = parts.shift() ?? "";
  const [statusLine = "", ...headerLines] = head.split("\r\n");
  const headers = new Headers();
  for (const line of headerLines) {
    const at = line.indexOf(":");
    headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  const text = parts.join("\r\n\r\n");
  let body: unknown;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: Number(statusLine.split(" ")[1]), headers, body };
}

/** The `n`th log line that `matches`, waited for: mail and texts go out after the answer. */
async function nthLogLine(matches: (line: Record<string, unknown>) => boolean, n: number) {
  const started = Date.now();
  for (;;) {
    const found = server.lines().filter(matches)[n - 1];
    if (found) return found;
    if (Date.now() - started > 10_000) throw new Error(`no log line #${n} found`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const nth = (key: string) => {
  const n = (seen.get(key) ?? 0) + 1;
  seen.set(key, n);
  return n;
};

let last: { headers: Headers; body: unknown } | undefined;

async function play(step: Step): Promise<void> {
  switch (step.kind) {
    case "not run":
      expect(NOT_RUN, `line ${step.line}: an unknown reason`).toHaveProperty(step.reason);
      return;
    case "command": {
      const ran = await run(step.command, step.folder);
      expect(ran.code, `line ${step.line}: ${step.command}\n${ran.stderr}`).toBe(0);
      return;
    }
    case "request": {
      const ran = await run(step.command, step.folder);
      expect(ran.code, `line ${step.line}: ${step.command}\n${ran.stderr}`).toBe(0);
      const got = answerOf(ran.stdout);
      last = got;
      // The pages' links name port 8081, like their commands.
      const documented = step.answer && {
        ...step.answer,
        body: JSON.parse(
          JSON.stringify(step.answer.body ?? null).replaceAll("localhost:8081", `localhost:${port}`),
        ),
      };
      if (!documented) {
        expect(got.status, `line ${step.line}: ${step.command}\n${ran.stdout}`).toBeLessThan(300);
        return;
      }
      const differences = [
        ...(got.status === documented.status
          ? []
          : [`status: expected ${documented.status}, got ${got.status}`]),
        ...Object.entries(documented.headers).flatMap(([name, value]) =>
          shapeDifferences(got.headers.get(name) ?? null, value, `header ${name}`),
        ),
        ...(step.answer?.body === undefined ? [] : shapeDifferences(got.body, documented.body)),
      ];
      expect(differences, `line ${step.line}: ${step.command}\n${ran.stdout}`).toEqual([]);
      return;
    }
    case "keep":
      for (const [name, source] of Object.entries(step.names))
        vars[name] = pick(last ?? { headers: new Headers(), body: undefined }, source);
      return;
    case "mail": {
      const mail = await nthLogLine((line) => line.mail_to === step.to, nth(`mail ${step.to}`));
      for (const [name, what] of Object.entries(step.names)) {
        const link = String(mail.mail_link);
        if (what === "code") vars[name] = String(mail.mail_code);
        else if (what === "link") vars[name] = link;
        else if (what === "token_hash") vars[name] = new URL(link).searchParams.get("token") ?? "";
        else throw new Error(`line ${step.line}: unknown mail value ${what}`);
      }
      return;
    }
    case "sms": {
      const sms = await nthLogLine((line) => line.sms_to === step.to, nth(`sms ${step.to}`));
      for (const name of Object.keys(step.names)) vars[name] = String(sms.sms_code);
      return;
    }
    case "totp":
      vars[step.name] = new TOTP({ secret: vars[step.from] ?? "" }).generate();
      return;
  }
}

describe("README.md and docs/first-requests.md, command by command", () => {
  it("has commands on both pages, every answer after its request, and few not run, each for a listed reason", () => {
    for (const page of PAGES)
      expect(steps.filter((s) => s.page === page && s.step.kind !== "not run").length).toBeGreaterThan(2);
    const requests = steps.filter(({ step }) => step.kind === "request" && step.answer);
    expect(requests.length).toBeGreaterThan(20);
    const notRun = steps.flatMap(({ page, step }) => (step.kind === "not run" ? [{ page, ...step }] : []));
    expect(new Set(notRun.map((s) => `${s.page}:${s.marker}`)).size, "markers").toBeLessThanOrEqual(5);
    expect(notRun.filter((s) => !(s.reason in NOT_RUN))).toEqual([]);
  });

  // One test per step, in the pages' order: later commands use the values earlier ones kept.
  it.each(
    steps.map(
      ({ page, step }) =>
        [
          `${page}:${step.line}: ${"command" in step ? step.command.split("\n")[0] : step.kind}`,
          step,
        ] as const,
    ),
  )(
    "%s",
    async (_name, step) => {
      await play(step);
    },
    90_000,
  );
});
