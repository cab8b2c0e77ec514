import type { Command } from "../command.js";
import { apiKeys } from "./api-keys.js";
import { cleanup } from "./cleanup.js";
import { importGotrue } from "./import-gotrue.js";
import { init } from "./init.js";
import { keys } from "./keys.js";
import { migrate } from "./migrate.js";
import { serve } from "./serve.js";

/** Every `authsvc` command, in the order `authsvc --help` lists them. A new command is a file here and one entry. */
export const COMMANDS: readonly Command[] = [serve, init, migrate, keys, apiKeys, cleanup, importGotrue];
