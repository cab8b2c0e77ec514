import { defaultAuthSettings } from "@authsvc/core/testing";
import { describe, expect, it } from "vitest";
import { authSettingsOf } from "./auth-settings.js";
import { loadConfig } from "./config.js";
import { MODULES } from "./modules.js";

const devJwtSecret = () => "a-development-secret-of-forty-characters!";

function config() {
  const result = loadConfig({ AUTHSVC_MFA_MAX_ENROLLED_FACTORS: "7" }, { devJwtSecret });
  if (!result.ok) throw new Error(result.problems.join("; "));
  return result.config;
}

describe("the use cases' settings", () => {
  it("are whole: the modules together give every setting the use cases read", () => {
    const settings = authSettingsOf(config());
    expect(Object.keys(settings).sort()).toEqual(Object.keys(defaultAuthSettings()).sort());
    expect(settings.mfa.maxEnrolledFactors).toBe(7);
  });

  it("lose the part of a module that is left out of the list", () => {
    const settings = authSettingsOf(
      config(),
      MODULES.filter((module) => module.name !== "mfa"),
    );
    expect(settings).not.toHaveProperty("mfa");
  });
});
