// Loaded with `node --import`: installs module-log-hooks.mjs before the server's first import, and
// logs CommonJS requires too (`createRequire`), which do not pass through those hooks.
import Module, { register } from "node:module";
import { pathToFileURL } from "node:url";
import { logModule } from "./module-log-hooks.mjs";

register("./module-log-hooks.mjs", import.meta.url);

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function logged(...args) {
  const file = resolveFilename.apply(this, args);
  if (file.startsWith("/")) logModule(pathToFileURL(file).href);
  return file;
};
