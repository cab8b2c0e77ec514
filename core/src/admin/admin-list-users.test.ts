import { describe, expect, it } from "vitest";
import { blankUser } from "../accounts/index.js";
import { fakeDeps } from "../testing/index.js";
import { adminListUsers, FILTERED_COUNT_LIMIT } from "./admin-list-users.js";

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** `count` users created one second apart (user 1 oldest), in the default audience unless told. */
function withUsers(count: number, aud = "authenticated") {
  const deps = fakeDeps();
  for (let n = 1; n <= count; n++) {
    const user = blankUser({
      id: id(n),
      aud,
      role: "authenticated",
      createdAt: deps.clock.now(),
      email: `u${n}@example.com`,
    });
    deps.store.tables.users.set(user.id, user);
    deps.clock.advance(1000);
  }
  return deps;
}

const badPaging = {
  ok: false,
  error: { code: "validation_failed", message: "Bad Pagination Parameters" },
};

describe("adminListUsers", () => {
  it("lists newest first, 50 a page from page 1 by default, with the total", async () => {
    const deps = withUsers(60);
    const result = await adminListUsers(deps, {});
    if (!result.ok) throw result.error;
    expect(result.value).toMatchObject({ total: 60, page: 1, perPage: 50, aud: "authenticated" });
    expect(result.value.users).toHaveLength(50);
    expect(result.value.users[0]?.id).toBe(id(60));
    expect(result.value.users[49]?.id).toBe(id(11));
  });

  it("answers the page asked for", async () => {
    const deps = withUsers(5);
    const result = await adminListUsers(deps, { page: 2, perPage: 2 });
    if (!result.ok) throw result.error;
    expect(result.value.users.map((u) => u.id)).toEqual([id(3), id(2)]);
    expect(result.value).toMatchObject({ total: 5, page: 2, perPage: 2 });
  });

  it("clamps per_page to 1000", async () => {
    const deps = withUsers(1001);
    const result = await adminListUsers(deps, { perPage: 5000 });
    if (!result.ok) throw result.error;
    expect(result.value.perPage).toBe(1000);
    expect(result.value.users).toHaveLength(1000);
  });

  it("lists only the users of the audience", async () => {
    const deps = withUsers(2, "partners");
    expect(await adminListUsers(deps, {})).toMatchObject({ ok: true, value: { users: [], total: 0 } });
    expect(await adminListUsers(deps, { aud: "partners" })).toMatchObject({
      ok: true,
      value: { total: 2, aud: "partners" },
    });
  });

  for (const [name, input] of [
    ["page 0", { page: 0 }],
    ["a negative page", { page: -1 }],
    ["per_page 0", { perPage: 0 }],
    ["a fractional page", { page: 1.5 }],
    ["a page beyond any exact offset", { page: 2 ** 60 }],
  ] as const) {
    it(`refuses ${name}`, async () => {
      expect(await adminListUsers(withUsers(1), input)).toMatchObject(badPaging);
    });
  }

  it("filters, counting matches up to FILTERED_COUNT_LIMIT and past it as far as the page served", async () => {
    const deps = withUsers(1_205);
    const filtered = async (page: number, filter: string) => {
      const result = await adminListUsers(deps, { page, perPage: 50, filter });
      if (!result.ok) throw result.error;
      return {
        first: result.value.users[0]?.email,
        shown: result.value.users.length,
        total: result.value.total,
      };
    };
    expect(await filtered(1, "U12")).toEqual({ first: "u1205@example.com", shown: 17, total: 17 });
    expect(await filtered(2, "u12")).toEqual({ first: undefined, shown: 0, total: 17 });
    expect(await filtered(1, "@")).toEqual({
      first: "u1205@example.com",
      shown: 50,
      total: FILTERED_COUNT_LIMIT,
    });
    expect(await filtered(22, "@")).toEqual({ first: "u155@example.com", shown: 50, total: 1_100 });
    expect(await filtered(25, "@")).toEqual({ first: "u5@example.com", shown: 5, total: 1_205 });
    expect(await filtered(26, "@")).toEqual({ first: undefined, shown: 0, total: FILTERED_COUNT_LIMIT });
  });
});
