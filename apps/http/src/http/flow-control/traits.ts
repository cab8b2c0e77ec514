import type { MethodTraits } from "@authsvc/core/kernel";

/** One method's traits, as read from a declaration without its port's types. */
export type Traits = MethodTraits<readonly unknown[], unknown>;

/** A port of a declaration, with those of its methods a wrapper wraps. */
export interface Marked {
  readonly port: string;
  readonly methods: readonly (readonly [method: string, traits: Traits])[];
}

/**
 * The methods of `declaration` (ports by name, their methods' traits by name) whose traits satisfy
 * `pick`, by port; ports with none are left out. Read once, when a wrapper is built: per call it is
 * a walk over the few marked methods, never a lookup by name.
 */
export function marked(declaration: object, pick: (traits: Traits) => boolean): readonly Marked[] {
  const out: Marked[] = [];
  for (const [port, methods] of Object.entries(declaration as Record<string, Record<string, Traits>>)) {
    const picked = Object.entries(methods).filter(([, traits]) => pick(traits));
    if (picked.length > 0) out.push({ port, methods: picked });
  }
  return out;
}

type Method = (...args: unknown[]) => unknown;

/**
 * A view of `ports` that inherits everything and replaces the `marked` methods by what `wrap` makes
 * of them (called with `this` = the port). Views and plain assignments rather than copies or property
 * descriptors: built per request, this must stay cheap, and a port replaced on `ports` later (tests
 * swap providers) still shows through.
 */
export function viewWith<P extends object>(
  ports: P,
  marks: readonly Marked[],
  wrap: (call: (args: unknown[]) => unknown, traits: Traits) => Method,
): P {
  const view = Object.create(ports) as Record<string, unknown>;
  for (const { port, methods } of marks) {
    const target = (ports as Record<string, Record<string, Method> | undefined>)[port];
    if (target === undefined) continue;
    const portView = Object.create(target) as Record<string, Method>;
    for (const [method, traits] of methods) {
      const fn = target[method];
      if (typeof fn !== "function") continue;
      portView[method] = wrap((args) => fn.apply(target, args), traits);
    }
    view[port] = portView;
  }
  return view as P;
}
