import type { FailureCatalogue } from "../kernel/index.js";

/** The admin slice's failures (composed with the others' in core/src/failures.ts). */
export const adminFailures = {
  // Admin
  userIdNotUuid: ["validation_failed", "user_id must be an UUID"],
  newUserIdNotUuid: ["validation_failed", "user id must be a valid UUID"],
  userIdTaken: ["user_already_exists", "User with this id already exists"],
  passwordAndHash: ["validation_failed", "Only a password or a password hash should be provided"],
  passwordHashInvalid: ["validation_failed", "Invalid password hash format"],
  banDurationInvalid: ["validation_failed", (reason: string) => `invalid format for ban duration: ${reason}`],
  paginationInvalid: ["validation_failed", "Bad Pagination Parameters"],
  badKeysetParameters: ["validation_failed", (reason: string) => `Bad Pagination Parameters: ${reason}`],
  auditQueryInvalid: ["validation_failed", (query: string) => `Invalid query scope: ${query}`],
  linkTypeInvalid: [
    "validation_failed",
    (type: string) => `Invalid email action link type requested: ${type}`,
  ],
  linkNeedsSecureEmailChange: [
    "validation_failed",
    "Enable secure email change to generate link for current email",
  ],
  userWithEmailNotFound: ["user_not_found", "User with this email not found"],
} as const satisfies FailureCatalogue;
