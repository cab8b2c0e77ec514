import { PROVIDER_DEFINITIONS } from "@authsvc/adapters";
import { expect, it } from "vitest";
import { PROVIDER_CASES } from "../testing/providers/index.js";
import { describeExternalProvider } from "../testing/providers/provider-suite.js";

it("has a fake for every provider", () => {
  expect(PROVIDER_CASES.map((c) => c.name).sort()).toEqual(Object.keys(PROVIDER_DEFINITIONS).sort());
});

for (const c of PROVIDER_CASES) describeExternalProvider(c);
