import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type FreshNamespace,
  mailCode,
  migratedNamespace,
  nthMail,
  type SmsGatewayFake,
  startSmtpSink,
  startTwilioFake,
  verifyLink,
} from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./support/cli.js";
import { parseSteps, pick, type Step, shapeDifferences } from "./support/doc-requests.js";
import { freePort } from "./support/free-port.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * docs/first-requests.md, run as written: each curl command of the page goes to a real server (with
 * a real SMTP server and a loopback Twilio for the codes), and each answer must have the status,
 * headers and body shape the page shows. A page that drifts from the server fails here.
 */
const DOC = new URL("../docs/first-requests.md", import.meta.url);
const steps = parseSteps(readFileSync(DOC, "utf8"));
const cwd = mkdtempSync(join(tmpdir(), "authsvc-first-requests-"));
const vars: Record<string, string> = {};
const mailsSeen = new Map<string, number>();
let smsSeen = 0;
let ns: FreshNamespace;
let server: ServerProcess;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let twilio: SmsGatewayFake;

beforeAll(async () => {
  ns = await migratedNamespace();
  sink = await startSmtpSink();
  twilio = await startTwilioFake({
    accountSid: "AC0123456789abcdef0123456789abcdef",
    authToken: "tw-token",
    sender: "+15550001111",
  });
  const port = await freePort();
  const env = productionServerEnv(ns, {
    PORT: String(port),
    AUTHSVC_API_EXTERNAL_URL: `http://127.0.0.1:${port}`,
    AUTHSVC_SMTP_HOST: sink.host,
    AUTHSVC_SMTP_PORT: String(sink.port),
    AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
    AUTHSVC_EXTERNAL_PHONE_ENABLED: "true",
    AUTHSVC_SMS_PROVIDER: "twilio",
    AUTHSVC_SMS_TWILIO_ACCOUNT_SID: "AC0123456789abcdef0123456789abcdef",
    AUTHSVC_SMS_TWILIO_AUTH_TOKEN: "tw-token",
    AUTHSVC_SMS_TWILIO_MESSAGE_SERVICE_SID: "+15550001111",
    AUTHSVC_SMS_TWILIO_BASE_URL: twilio.url,
  });
  server = await startServer(env, { cwd });
  vars.URL = server.url;
  // The keys as the page says to get them.
  const keys = await runCli(["api-keys"], { cwd, env });
  for (const line of keys.stdout.trim().split("\n")) {
    const [role = "", key = ""] = line.split(/ +/);
    vars[role === "anon" ? "ANON_KEY" : "SERVICE_ROLE_KEY"] = key;
  }
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await sink?.close();
  await twilio?.close();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

/** Runs one command of the page with bash, `curl -s -i` so that the status and headers come back. */
function runCurl(command: string): Promise<{ status: number; headers: Headers; body: unknown; raw: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      "bash",
      ["-c", `set -u; curl() { command curl -s -i "$@"; }; ${command}`],
      { env: { PATH: process.env.PATH ?? "", ...vars }, timeout: 20_000 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`${error.message}\n${stderr}`));
        const [head = "", ...rest] = stdout.split("\r\n\r\n");
        const [statusLine = "", ...headerLines] = head.split("\r\n");
        const headers = new Headers();
        for (const line of headerLines) {
          const at = line.indexOf(":");
          headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
        }
        const text = rest.join("\r\n\r\n");
        let body: unknown;
        try {
          body = text === "" ? undefined : JSON.parse(text);
        } catch {
          body = text;
        }
        resolve({ status: Number(statusLine.split(" ")[1]), headers, body, raw: stdout });
      },
    );
  });
}

let last: { headers: Headers; body: unknown } | undefined;

async function play(step: Step): Promise<void> {
  switch (step.kind) {
    case "request": {
      const got = await runCurl(step.command);
      last = got;
      const documented = step.answer;
      if (!documented) throw new Error(`line ${step.line}: no documented answer`);
      const differences = [
        ...(got.status === documented.status
          ? []
          : [`status: expected ${documented.status}, got ${got.status}`]),
        ...Object.entries(documented.headers).flatMap(([name, value]) =>
          shapeDifferences(got.headers.get(name) ?? null, value, `header ${name}`),
        ),
        ...(documented.body === undefined ? [] : shapeDifferences(got.body, documented.body)),
      ];
      expect(differences, `line ${step.line}: ${step.command}\n${got.raw}`).toEqual([]);
      return;
    }
    case "keep":
      for (const [name, source] of Object.entries(step.names))
        vars[name] = pick(last ?? { headers: new Headers(), body: undefined }, source);
      return;
    case "mail": {
      const n = (mailsSeen.get(step.to) ?? 0) + 1;
      mailsSeen.set(step.to, n);
      const mail = await nthMail(sink, step.to, n);
      for (const [name, what] of Object.entries(step.names)) {
        if (what === "code") vars[name] = mailCode(mail);
        else if (what === "link") vars[name] = verifyLink(mail);
        else if (what === "token_hash")
          vars[name] = new URL(verifyLink(mail)).searchParams.get("token") ?? "";
        else throw new Error(`line ${step.line}: unknown mail value ${what}`);
      }
      return;
    }
    case "sms": {
      smsSeen++;
      const started = Date.now();
      while (twilio.messages.length < smsSeen && Date.now() - started < 10_000)
        await new Promise((r) => setTimeout(r, 20));
      const message = twilio.messages[smsSeen - 1];
      expect(message?.to.replace(/^\+/, "")).toBe(step.to.replace(/^\+/, ""));
      for (const name of Object.keys(step.names)) vars[name] = /\d{6}/.exec(message?.body ?? "")?.[0] ?? "";
      return;
    }
    case "totp":
      vars[step.name] = new TOTP({ secret: vars[step.from] ?? "" }).generate();
      return;
  }
}

describe("docs/first-requests.md", () => {
  it("has requests, each with its answer", () => {
    const requests = steps.filter((s) => s.kind === "request");
    expect(requests.length).toBeGreaterThan(20);
    expect(requests.filter((s) => !s.answer).map((s) => s.line)).toEqual([]);
  });

  // One test per step, in the page's order: a flow's later requests use the values kept from earlier ones.
  it.each(
    steps.map(
      (step) =>
        [
          `line ${step.line}: ${step.kind === "request" ? step.command.split("\n")[0] : step.kind}`,
          step,
        ] as const,
    ),
  )("%s", async (_name, step) => {
    await play(step);
  });
});
