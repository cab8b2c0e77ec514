/** `npm run docs`: rewrites the generated part of docs/configuration.md, and example.env. */
import { readFileSync, writeFileSync } from "node:fs";
import { renderExampleEnv, updateConfigurationDoc } from "./render.js";

const root = new URL("../../../../../", import.meta.url);
const doc = new URL("docs/configuration.md", root);
writeFileSync(doc, updateConfigurationDoc(readFileSync(doc, "utf8")));
writeFileSync(new URL("example.env", root), renderExampleEnv());
