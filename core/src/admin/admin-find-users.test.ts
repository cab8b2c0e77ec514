import { describe, expect, it } from "vitest";
import { fakeDeps } from "../testing/index.js";
import { adminCreateUser } from "./admin-create-user.js";
import { adminFindUsers } from "./admin-find-users.js";

const actor = { role: "service_role" };

async function setUp() {
  const deps = fakeDeps();
  const ids: string[] = [];
  for (const fields of [
    { email: "alice@example.com", phone: "+15550001111" },
    { email: "bob@example.com" },
    { email: "alicia@example.org" },
  ]) {
    const created = await adminCreateUser(deps, { actor, fields });
    if (!created.ok) throw created.error;
    ids.push(created.value.id);
  }
  const emails = async (query: string) => {
    const found = await adminFindUsers(deps, { query });
    if (!found.ok) throw found.error;
    return found.value.users.map((u) => u.email).sort();
  };
  return { ids, emails };
}

describe("adminFindUsers", () => {
  it("finds a user by id, by phone number (as typed), and by text in the email", async () => {
    const { ids, emails } = await setUp();
    expect(await emails((ids[1] as string).toUpperCase())).toEqual(["bob@example.com"]);
    expect(await emails("+1 555-000-1111")).toEqual(["alice@example.com"]);
    expect(await emails("ALI")).toEqual(["alice@example.com", "alicia@example.org"]);
  });

  it("finds no one for an unknown id or phone", async () => {
    const { emails } = await setUp();
    expect(await emails("11111111-1111-4111-8111-111111111111")).toEqual([]);
    expect(await emails("+15559999999")).toEqual([]);
  });
});
