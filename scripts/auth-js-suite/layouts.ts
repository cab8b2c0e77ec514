/**
 * The two shapes an auth-js checkout comes in, and what each needs of the run:
 *
 * - compose: the old auth-js repository, whose `infra/docker-compose.yml` starts four GoTrue servers
 *   and whose suite lives in `test/` with its own install;
 * - cli: supabase-js's `packages/core/auth-js`, whose tests expect one Supabase-CLI auth server
 *   configured by `test/supabase/config.toml`, run with the package's `jest.config.cli.js`.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CLI_CONFIG, cliServer } from "./cli-config.js";
import { type SuiteServer, suiteServers } from "./compose.js";
import type { JestPlace } from "./jest.js";

export interface Outside {
  readonly databaseUrl: string;
  readonly smtpPort: number;
  /** The loopback Twilio's URL, for the layouts whose servers text through Twilio. */
  readonly twilioUrl: string;
}

export interface Layout {
  readonly name: "compose" | "cli";
  /** Files that must exist, with what to do when one is missing. */
  readonly needs: readonly { path: string; hint: string }[];
  /** The SMTP credentials the mail sink requires, as the layout's mail server would. */
  readonly smtpAuth?: { user: string; pass: string };
  readonly usesTwilio: boolean;
  readonly jest: JestPlace;
  /** Makes what the layout's own scripts make before the suite (signing keys). */
  prepare(): void;
  servers(outside: Outside): { servers: SuiteServer[]; ignored: string[] };
}

const INSTALL =
  "run `npm install` in the package, its `catalog:` versions first replaced by those of the supabase-js pnpm-workspace.yaml";
const SIGNING_KEYS = "test/supabase/signing_keys.json";

function cliLayout(checkout: string): Layout {
  return {
    name: "cli",
    needs: [
      { path: "jest.config.cli.js", hint: "not a supabase-js auth-js package" },
      // Its tsconfig.json extends the monorepo root's, three folders up.
      { path: "../../../tsconfig.base.json", hint: "copy the supabase-js root's tsconfig.base.json there" },
      { path: "node_modules/jest/bin/jest.js", hint: INSTALL },
      { path: "node_modules/typescript", hint: INSTALL },
    ],
    usesTwilio: false,
    jest: { dir: checkout, config: "jest.config.cli.js" },
    prepare() {
      // The package's `test:generate-keys` step: a fresh RSA key the tests sign their API keys with.
      if (existsSync(join(checkout, SIGNING_KEYS))) return;
      execFileSync(process.execPath, [join(checkout, "test/generate-signing-keys.js")], {
        cwd: join(checkout, "test"),
        stdio: "ignore",
      });
    },
    servers(outside) {
      const { server, ignored } = cliServer(checkout, outside);
      return { servers: [server], ignored };
    },
  };
}

function composeLayout(checkout: string): Layout {
  return {
    name: "compose",
    needs: [
      { path: "infra/docker-compose.yml", hint: "not an auth-js checkout" },
      { path: "test/jest.config.js", hint: "not an auth-js checkout" },
      { path: "node_modules/typescript", hint: "run `npm install` at the checkout's root" },
      { path: "test/node_modules/jest/bin/jest.js", hint: "run `npm install` in test/" },
    ],
    // The compose file's SMTP credentials, required as inbucket would take them.
    smtpAuth: { user: "GOTRUE_SMTP_USER", pass: "GOTRUE_SMTP_PASS" },
    usesTwilio: true,
    jest: { dir: join(checkout, "test") },
    prepare() {},
    servers: (outside) => ({ servers: suiteServers(checkout, outside), ignored: [] }),
  };
}

/** The checkout's layout: a CLI config file marks the newer one. */
export const layoutOf = (checkout: string): Layout =>
  existsSync(join(checkout, CLI_CONFIG)) ? cliLayout(checkout) : composeLayout(checkout);
