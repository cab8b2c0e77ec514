import { describe, expect, it } from "vitest";
import { testApp } from "../../testing/test-app.js";
import { bearerToken } from "./auth.js";

describe("bearerToken", () => {
  it("reads the token of a bearer header, the scheme in any case", () => {
    expect(bearerToken("Bearer abc.def")).toBe("abc.def");
    expect(bearerToken("bEaReR abc.def")).toBe("abc.def");
  });

  it.each([undefined, "", "Basic abc", "Bearer", "Bearer a b", "Bearer  abc"])(
    "finds no token in the header %j",
    (authorization) => {
      expect(bearerToken(authorization)).toBeUndefined();
    },
  );
});

describe("requireUser", () => {
  it("answers a request without a bearer token 401 no_authorization", async () => {
    const { app } = testApp();
    const response = await app.request("/user", { headers: { authorization: "Basic abc" } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({
      code: 401,
      error_code: "no_authorization",
      msg: "This endpoint requires a valid Bearer token",
    });
  });
});
