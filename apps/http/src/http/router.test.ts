import { RegExpRouter } from "hono/router/reg-exp-router";
import { describe, expect, it } from "vitest";
import { MODULES } from "../composition/modules.js";
import { declaredRoutes } from "../testing/declared-routes.js";
import { testApp } from "../testing/test-app.js";
import { SplitRouter, TRIE_PREFIXES } from "./router.js";

const under = (path: string) => TRIE_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));

/** The handlers a router's match answers, in order, with the parameters of each. */
function handlersOf(router: SplitRouter<string>, method: string, path: string) {
  const [matched, stash] = router.match(method, path);
  return matched.map(([handler, params]) => {
    const values = Object.fromEntries(
      Object.entries(params).map(([name, at]) => [name, stash ? stash[at as number] : at]),
    );
    return [handler, values];
  });
}

describe("SplitRouter", () => {
  // In the mfa module's order: the recovery codes' static paths before a factor's parameter.
  const routes: [string, string, string][] = [
    ["ALL", "/*", "middleware"],
    ["POST", "/factors/recovery-codes/verify", "recovery verify"],
    ["DELETE", "/factors/recovery-codes", "recovery delete"],
    ["POST", "/factors/:factor_id/verify", "factor verify"],
    ["DELETE", "/factors/:factor_id", "factor delete"],
    ["GET", "/user", "user"],
  ];

  it("holds what Hono's RegExpRouter refuses: a static segment beside a parameter", () => {
    const regexp = new RegExpRouter<string>();
    expect(() => {
      for (const [method, path, handler] of routes) regexp.add(method, path, handler);
      regexp.match("GET", "/user");
    }).toThrow();

    const router = new SplitRouter<string>();
    for (const [method, path, handler] of routes) router.add(method, path, handler);
    // The trie answers every route that matches, in the order they were added: the first answers.
    expect(handlersOf(router, "POST", "/factors/recovery-codes/verify")).toEqual([
      ["middleware", {}],
      ["recovery verify", {}],
      ["factor verify", { factor_id: "recovery-codes" }],
    ]);
    expect(handlersOf(router, "DELETE", "/factors/recovery-codes")).toEqual([
      ["middleware", {}],
      ["recovery delete", {}],
      ["factor delete", { factor_id: "recovery-codes" }],
    ]);
    expect(handlersOf(router, "POST", "/factors/abc/verify")).toEqual([
      ["middleware", {}],
      ["factor verify", { factor_id: "abc" }],
    ]);
    expect(handlersOf(router, "GET", "/user")).toEqual([
      ["middleware", {}],
      ["user", {}],
    ]);
    expect(handlersOf(router, "GET", "/factors/recovery-codes-x")).toEqual([["middleware", {}]]);
  });

  it("every declared route outside TRIE_PREFIXES fits one RegExpRouter: no request falls back to the trie", () => {
    const regexp = new RegExpRouter<number>();
    for (const route of declaredRoutes(MODULES))
      if (!under(route.path)) regexp.add(route.method, route.path, 0);
    expect(() => regexp.match("GET", "/user")).not.toThrow();
  });

  it("is the app's router", async () => {
    const { app } = testApp();
    expect(app.router.name).toBe("SplitRouter");
    expect((await app.request("/factors/recovery-codes", { method: "GET" })).status).toBe(401);
    expect((await app.request("/factors/some-factor/verify", { method: "POST" })).status).toBe(401);
  });
});
