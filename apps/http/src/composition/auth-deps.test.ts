import { fakeDeps } from "@authsvc/core/testing";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { deliveriesOf } from "../infrastructure/mail/deliveries.js";
import { memoryLogger } from "../testing/memory-log.js";
import { authDepsOf } from "./auth-deps.js";
import { loadConfig } from "./config.js";
import { MODULES } from "./modules.js";

const devJwtSecret = () => "a-development-secret-of-forty-characters!";
// Never connected: building the ports opens nothing.
const sql = postgres("postgres://nobody@127.0.0.1:1/nothing", { max: 1 });
afterAll(() => sql.end({ timeout: 0 }));

function deps(modules = MODULES) {
  const result = loadConfig({}, { devJwtSecret });
  if (!result.ok) throw new Error(result.problems.join("; "));
  const { logger } = memoryLogger();
  return authDepsOf(result.config, sql, logger, deliveriesOf(logger), modules);
}

describe("the use cases' ports", () => {
  it("are whole: the shared ports and the modules' together give every port", () => {
    expect(Object.keys(deps()).sort()).toEqual(Object.keys(fakeDeps()).sort());
  });

  it("lack the ports of a module left out of the list", () => {
    const without = deps(MODULES.filter((module) => module.name !== "mfa"));
    expect(without).not.toHaveProperty("totp");
    expect(without).not.toHaveProperty("secretBox");
    expect(without).toHaveProperty("mailer");
  });
});
