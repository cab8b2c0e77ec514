import { type FailureName, failureCodeOf, failures } from "@authsvc/core";
import { expect, it } from "vitest";
import { MODULES } from "../composition/modules.js";
import { statusIn } from "../http/errors.js";
import { KERNEL_STATUSES, type StatusOwner, statusTable } from "../http/statuses.js";

/** The owner of the codes no module owns: the request itself, and faults (http/statuses.ts). */
export const KERNEL: StatusOwner = { name: "kernel", statuses: KERNEL_STATUSES };

/**
 * The failures of core's catalogue whose status `owner` decides: those it gives a status of their
 * own (`failureStatuses`), and those whose code it owns that no other module gives one.
 */
export function failuresOwnedBy(
  owner: StatusOwner,
  modules: readonly StatusOwner[] = MODULES,
): FailureName[] {
  return (Object.keys(failures) as FailureName[]).filter((name) => {
    if (owner.failureStatuses?.[name] !== undefined) return true;
    if (modules.some((module) => module.failureStatuses?.[name] !== undefined)) return false;
    return owner.statuses?.[failureCodeOf[name]] !== undefined;
  });
}

/** The failure `name` built with placeholder arguments. */
const built = (name: FailureName) =>
  (failures[name] as (...args: unknown[]) => ReturnType<typeof failures.userBanned>)(["x"], "y");

/**
 * A test, in the owner's folder, that each failure it owns answers with the status the reference gives
 * it: `expected` lists them all, so a new failure of the module is added beside the module.
 */
export function itAnswersItsFailures(
  owner: StatusOwner,
  expected: Readonly<Partial<Record<FailureName, number>>>,
): void {
  it(`answers each failure ${owner.name} owns with the reference's status`, () => {
    const table = statusTable(MODULES);
    const answered = Object.fromEntries(
      failuresOwnedBy(owner).map((name) => [name, statusIn(table, built(name))]),
    );
    expect(answered).toEqual(expected);
  });
}
