// Loaded with `node --import`: installs module-log-hooks.mjs before the server's first import.
import { register } from "node:module";

register("./module-log-hooks.mjs", import.meta.url);
