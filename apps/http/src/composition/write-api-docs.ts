/** `npm run docs:api`: rewrites the generated parts of docs/http-api.md from the OpenAPI description. */
import { readFileSync, writeFileSync } from "node:fs";
import { MODULES } from "../modules/index.js";
import { openApiDocument } from "./document.js";
import { updateHttpApiDoc } from "./markdown.js";

const page = new URL("../../../../docs/http-api.md", import.meta.url);
writeFileSync(page, updateHttpApiDoc(readFileSync(page, "utf8"), openApiDocument(MODULES)));
