import { describe, expect, it } from "vitest";
import { unstorableInput } from "./unstorable-input.js";

const postgresError = (code: string) =>
  Object.assign(new Error("unsupported Unicode escape sequence: \\u0000 secret-row"), {
    name: "PostgresError",
    code,
  });

describe("unstorableInput", () => {
  it.each(["22P05", "22021", "22001", "54001"])("answers SQLSTATE %s as validation_failed", (code) => {
    const failure = unstorableInput(postgresError(code));
    expect(failure).toMatchObject({
      failure: "unstorableValue",
      code: "validation_failed",
      message: "The request contains a value that cannot be stored",
    });
    expect(JSON.stringify(failure)).not.toContain("secret-row");
  });

  it("leaves any other error to be a fault", () => {
    expect(unstorableInput(postgresError("23505"))).toBeNull();
    expect(unstorableInput(Object.assign(new Error("x"), { code: "22P05" }))).toBeNull();
    expect(unstorableInput(null)).toBeNull();
  });
});
