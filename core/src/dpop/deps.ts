import type { KernelDeps } from "../kernel/index.js";
import type { DpopNonces, DpopProofLedger, DpopProofReader } from "./ports/dpop.js";
import type { DpopSettings } from "./settings.js";

/** The ports of DPoP proof checking. */
export interface DpopDeps extends Pick<KernelDeps, "clock" | "tokens"> {
  readonly settings: DpopSettings;
  readonly dpopProofs: DpopProofReader;
  readonly dpopNonces: DpopNonces;
  readonly dpopLedger: DpopProofLedger;
}
