import { type FailureName, failureCodes } from "@authsvc/core";
import type { ErrorCode } from "@authsvc/core/kernel";

/** The status of the codes no capability owns: the request itself, and faults. */
export const KERNEL_STATUSES: Readonly<Partial<Record<ErrorCode, number>>> = {
  unknown: 500,
  unexpected_failure: 500,
  validation_failed: 400,
  bad_json: 400,
  request_entity_too_large: 413,
  request_timeout: 504,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  feature_disabled: 404,
  user_not_found: 404,
};

/** What owns error codes: a capability (modules/) with the statuses of its codes and failures. */
export interface StatusOwner {
  readonly name: string;
  /** The HTTP status of each error code it owns: one owner per code. */
  readonly statuses?: Readonly<Partial<Record<ErrorCode, number>>>;
  /** Failures of its own that the reference answers with another status than their code's. */
  readonly failureStatuses?: Readonly<Partial<Record<FailureName, number>>>;
}

/** The HTTP status of every error code, and the failures answered with another status than their code's. */
export interface StatusTable {
  /** The status of each code a module owns (every code a failure answers with has one). */
  readonly byCode: Readonly<Partial<Record<ErrorCode, number>>>;
  readonly byFailure: Readonly<Partial<Record<FailureName, number>>>;
}

/**
 * Merges the kernel's statuses and the modules'. A code or failure given twice, or a code that a
 * failure answers with and no module gives a status, is a mistake in the module list: it throws when
 * the table is first built.
 */
export function statusTable(modules: readonly StatusOwner[]): StatusTable {
  const byCode = new Map<string, number>();
  const byFailure = new Map<string, number>();
  const add = (
    into: Map<string, number>,
    owner: string,
    entries: Readonly<Record<string, number | undefined>>,
  ) => {
    for (const [key, status] of Object.entries(entries)) {
      if (status === undefined) continue;
      if (into.has(key)) throw new Error(`statusTable: "${key}" is given a status twice (again by ${owner})`);
      into.set(key, status);
    }
  };
  add(byCode, "the kernel", KERNEL_STATUSES);
  for (const module of modules) {
    add(byCode, module.name, module.statuses ?? {});
    add(byFailure, module.name, module.failureStatuses ?? {});
  }
  const missing = [...failureCodes].filter((code) => !byCode.has(code));
  if (missing.length > 0) throw new Error(`statusTable: no status for ${missing.join(", ")}`);
  return {
    byCode: Object.fromEntries(byCode) as Partial<Record<ErrorCode, number>>,
    byFailure: Object.fromEntries(byFailure) as Partial<Record<FailureName, number>>,
  };
}
