export {
  type ImportOptions,
  type ImportSummary,
  importGotrue,
  MAX_REJECTIONS_LISTED,
  type StepSummary,
} from "./import.js";
export { type ReferenceKeys, referenceKeysFrom, referenceSecretOpener } from "./reference-secrets.js";
export { referenceRefreshTokenV2 } from "./refresh-token-v2.js";
export type { StepProgress } from "./run-step.js";
export { type CopyCounts, type ImportContext, ImportFailure, type Rejection } from "./step.js";
