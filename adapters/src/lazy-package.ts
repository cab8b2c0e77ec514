import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/**
 * A CommonJS package loaded on first use rather than at start. The adapters are imported together
 * (one barrel), and SMS, Redis, SMTP, QR codes and outgoing HTTP calls are each used by few
 * deployments and few requests: loaded eagerly they cost every process about 25 MB of heap and a
 * slower start, whether configured or not.
 */
export function lazyPackage<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= require(name) as T;
    return loaded;
  };
}
