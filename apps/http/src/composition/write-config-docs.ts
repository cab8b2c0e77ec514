/** `npm run docs`: rewrites the generated part of docs/configuration.md, and example.env. */
import { readFileSync, writeFileSync } from "node:fs";
import { renderExampleEnv, updateConfigurationDoc } from "../config/docs/render.js";
import { configVariables } from "./config.js";

const root = new URL("../../../../", import.meta.url);
const doc = new URL("docs/configuration.md", root);
writeFileSync(doc, updateConfigurationDoc(readFileSync(doc, "utf8"), configVariables()));
writeFileSync(new URL("example.env", root), renderExampleEnv(configVariables()));
