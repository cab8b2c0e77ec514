import { type AuthDeps, type DepsTraits, depsTraits } from "@authsvc/core";
import type { Aside } from "./admission.js";
import { marked, viewWith } from "./traits.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Puts ports on a request's view of `AuthDeps` and takes them off again. */
export interface AsidePorts {
  /** Replaces, on `view`, the ports whose waits are outside with ones that step aside meanwhile. */
  apply(view: AuthDeps, aside: Aside): void;
  /** Puts `auth`'s own ports back on `view`: what runs after the answer holds no slot to give up. */
  restore(view: AuthDeps): void;
}

/**
 * The ports of `auth` with methods declared to wait outside this process (`waitsOutside`: the hash
 * pool, hooks), rebuilt so that the request gives up its admission slot while they wait
 * (http/flow-control/admission.ts). One admission per process: they are built once, not per request
 * (again only when a test has swapped one of them on `auth`).
 */
export function asidePorts(auth: AuthDeps, traits: DepsTraits = depsTraits): AsidePorts {
  const marks = marked(traits, (t) => t.waitsOutside === true);
  const names = marks.map((m) => m.port as keyof AuthDeps);
  let built: { aside: Aside; of: readonly unknown[]; view: AuthDeps } | undefined;
  const current = (aside: Aside): AuthDeps => {
    const of = names.map((name) => auth[name]);
    if (built?.aside !== aside || built.of.some((port, i) => port !== of[i])) {
      const view = viewWith(
        auth,
        marks,
        (call) =>
          (...args: unknown[]) =>
            aside(async () => call(args)),
      );
      built = { aside, of, view };
    }
    return built.view;
  };
  return {
    apply(view, aside) {
      const ports = current(aside);
      const out = view as Mutable<Record<keyof AuthDeps, unknown>>;
      for (const name of names) out[name] = ports[name];
    },
    restore(view) {
      const out = view as Mutable<Record<keyof AuthDeps, unknown>>;
      for (const name of names) out[name] = auth[name];
    },
  };
}
