import type { HookDispatcher, HookFunctions, HookName } from "../../hooks/index.js";
import type { Result } from "../../kernel/index.js";

type Answer = Result<Readonly<Record<string, unknown>>>;
/** A hook's behaviour in a test: its answer to `input`. */
export type FakeHook = (input: unknown) => Answer | Promise<Answer>;

/** A `HookDispatcher` whose enabled hooks are the handlers given; records every call. */
export function fakeHooks(
  handlers: Partial<Record<HookName, FakeHook>> = {},
  options: { overHttp?: boolean } = {},
) {
  const calls: { name: HookName; input: unknown }[] = [];
  const dispatcher: HookDispatcher = {
    enabled: (name) => handlers[name] !== undefined,
    overHttp: () => options.overHttp ?? true,
    async run(name, input) {
      calls.push({ name, input });
      const handler = handlers[name];
      if (handler === undefined) throw new Error(`fakeHooks: hook ${name} is not enabled`);
      return handler(input);
    },
  };
  return { dispatcher, calls };
}

/** Postgres-function hooks as JavaScript functions, keyed `schema.name`. */
export function fakeHookFunctions(): HookFunctions & {
  define(schema: string, name: string, fn: (payload: unknown) => unknown): void;
} {
  const defined = new Map<string, (payload: unknown) => unknown>();
  return {
    define: (schema, name, fn) => void defined.set(`${schema}.${name}`, fn),
    async call(schema, name, payload) {
      const fn = defined.get(`${schema}.${name}`);
      if (fn === undefined) throw new Error(`function ${schema}.${name}(jsonb) does not exist`);
      return fn(payload);
    },
  };
}
