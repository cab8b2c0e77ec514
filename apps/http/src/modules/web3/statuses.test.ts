import type { FailureName } from "@authsvc/core";
import { describe } from "vitest";
import { itAnswersItsFailures } from "../../testing/statuses.js";
import { web3Module } from "./index.js";

/** The status the reference gives each failure whose code this module owns. */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  web3Disabled: 422,
  web3UnsupportedChain: 400,
  web3ChainDisabled: 422,
};

describe("web3's statuses", () => itAnswersItsFailures(web3Module, EXPECTED));
