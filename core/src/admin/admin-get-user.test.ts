import { describe, expect, it } from "vitest";
import { fakeDeps } from "../testing/index.js";
import { adminCreateUser } from "./admin-create-user.js";
import { adminGetUser } from "./admin-get-user.js";

describe("adminGetUser", () => {
  it("answers the user with their identities and factors", async () => {
    const deps = fakeDeps();
    const created = await adminCreateUser(deps, {
      actor: { role: "service_role" },
      fields: { email: "a@example.com" },
    });
    if (!created.ok) throw created.error;
    expect(await adminGetUser(deps, { userId: created.value.id })).toEqual({
      ok: true,
      value: { ...created.value, factors: [] },
    });
  });

  it("answers 404 user_not_found for an unknown id", async () => {
    const deps = fakeDeps();
    expect(await adminGetUser(deps, { userId: "11111111-1111-4111-8111-111111111111" })).toMatchObject({
      ok: false,
      error: { code: "user_not_found", message: "User not found" },
    });
  });

  it("answers 404 validation_failed for an id that is not a UUID", async () => {
    const deps = fakeDeps();
    expect(await adminGetUser(deps, { userId: "1; drop table users" })).toMatchObject({
      ok: false,
      error: { failure: "userIdNotUuid", code: "validation_failed", message: "user_id must be an UUID" },
    });
  });
});
