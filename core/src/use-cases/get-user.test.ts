import { describe, expect, it } from "vitest";
import { fakeDeps } from "../testing/index.js";
import { adminCreateUser } from "./admin-create-user.js";
import { getUser } from "./get-user.js";

describe("getUser", () => {
  it("answers the user with their identities", async () => {
    const deps = fakeDeps();
    const created = await adminCreateUser(deps, {
      actor: { role: "service_role" },
      input: { email: "alice@example.com", phone: "+15550100" },
    });
    if (!created.ok) throw created.error;
    const result = await getUser(deps, { userId: created.value.id });
    expect(result).toEqual({ ok: true, value: created.value });
    if (result.ok) expect(result.value.identities.map((i) => i.provider)).toEqual(["email", "phone"]);
  });

  it("answers 404 user_not_found for a user that no longer exists", async () => {
    const deps = fakeDeps();
    expect(await getUser(deps, { userId: "11111111-1111-4111-8111-111111111111" })).toMatchObject({
      ok: false,
      error: { status: 404, code: "user_not_found", message: "User not found" },
    });
  });
});
