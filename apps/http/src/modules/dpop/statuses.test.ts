import type { FailureName } from "@authsvc/core";
import { describe } from "vitest";
import { itAnswersItsFailures } from "../../testing/statuses.js";
import { dpopModule } from "./index.js";

/** RFC 9449's words: a refused proof or a missing nonce at the token endpoint (400), a refused resource request (401). */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  dpopProofMissing: 400,
  dpopProofInvalid: 400,
  dpopProofReplayed: 400,
  dpopNonceMissing: 400,
  dpopNonceStale: 400,
  dpopKeyMismatch: 400,
  pushedRequestDpopKeyMismatch: 400,
  dpopBoundTokenAsBearer: 401,
  dpopSchemeWithoutBinding: 401,
};

describe("dpop's statuses", () => itAnswersItsFailures(dpopModule, EXPECTED));
