import { describe, expect, it } from "vitest";
import { memoryLogger } from "../../testing/memory-log.js";
import { logUnredacted, REDACTED } from "./logger.js";

const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";

describe("log redaction", () => {
  it("never writes passwords, tokens, secrets, OTPs or nonces, at any depth", () => {
    const { logger, text, lines } = memoryLogger();
    logger.info(
      {
        body: {
          email: "a@example.com",
          password: "hunter2hunter2",
          data: { nested: { refresh_token: "rt-abcdef" } },
        },
        headers: { authorization: `Bearer ${jwt}`, cookie: "sb=secretcookie" },
        otp: "123456",
        nonce: "987654",
        config: { jwtSecret: "super-secret-value-1234", smtp: { pass: "mailpass" } },
        token_hash: "deadbeefcafe",
        list: [{ access_token: "at-xyz" }],
      },
      "signup",
    );
    const out = text();
    for (const secret of [
      "hunter2hunter2",
      "rt-abcdef",
      jwt,
      "secretcookie",
      "123456",
      "987654",
      "super-secret-value-1234",
      "mailpass",
      "deadbeefcafe",
      "at-xyz",
    ]) {
      expect(out).not.toContain(secret);
    }
    const line = lines()[0] as { body: { email: string; password: string }; otp: string };
    expect(line.body.email).toBe("a@example.com");
    expect(line.body.password).toBe(REDACTED);
    expect(line.otp).toBe(REDACTED);
  });

  it("scrubs JWTs and URL passwords out of messages and error texts", () => {
    const { logger, text } = memoryLogger();
    logger.warn(`token was ${jwt}`);
    logger.error({ err: new Error("connect postgres://app:s3cr3tpw@db:5432/x failed") }, "db down");
    const out = text();
    expect(out).not.toContain(jwt);
    expect(out).not.toContain("s3cr3tpw");
    expect(out).toContain("postgres://app:[REDACTED]@db:5432/x");
  });

  it("keeps the fields an operator needs", () => {
    const { logger, lines } = memoryLogger();
    logger.info({ request_id: "r1", status: 200, path: "/token", user_id: "u1" }, "request completed");
    expect(lines()[0]).toMatchObject({
      level: "info",
      request_id: "r1",
      status: 200,
      path: "/token",
      user_id: "u1",
      msg: "request completed",
    });
  });

  it("honours the level: debug lines are dropped at info, panic logs as fatal", () => {
    const info = memoryLogger("info");
    info.logger.debug("hidden");
    info.logger.info("shown");
    expect(info.lines().map((l) => l.msg)).toEqual(["shown"]);
    const panic = memoryLogger("panic");
    panic.logger.error("hidden");
    panic.logger.fatal("shown");
    expect(panic.lines().map((l) => l.level)).toEqual(["fatal"]);
  });

  it("logUnredacted writes the development keys verbatim, once", () => {
    const { logger, lines } = memoryLogger("info");
    logUnredacted(logger, { anon_key: jwt }, "development keys");
    expect(lines()).toEqual([
      expect.objectContaining({ anon_key: jwt, msg: "development keys", level: "info" }),
    ]);
  });
});

describe("errors in logs", () => {
  it("keep their type, message, stack and SQLSTATE, but not the database's detail or where", () => {
    const { logger, lines } = memoryLogger();
    const error = Object.assign(new Error("duplicate key value violates unique constraint"), {
      name: "PostgresError",
      code: "23505",
      detail: "Failing row contains ($argon2id$v=19$m=19456,t=2,p=1$abc$def, secret metadata)",
      where: "SQL statement with values",
      constraint_name: "users_pkey",
    });
    logger.error({ err: error }, "request failed");
    const err = lines()[0]?.err as Record<string, unknown>;
    expect(err).toMatchObject({
      type: "PostgresError",
      message: "duplicate key value violates unique constraint",
      sqlstate: "23505",
      constraint_name: "users_pkey",
    });
    expect(JSON.stringify(lines())).not.toContain("Failing row");
    expect(JSON.stringify(lines())).not.toContain("argon2id");
  });
});
