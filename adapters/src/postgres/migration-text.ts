/** What a migration or function file writes where the namespace goes: `{{namespace}}.users`. */
const PLACEHOLDER = "{{namespace}}";

export class MigrationError extends Error {
  override name = "MigrationError";
}

/**
 * `text` with the (already validated) namespace put in its placeholders, quoted. Any other `{{…}}` is a
 * mistake in the file, reported under `label` before anything reaches the database.
 */
export function renderMigrationText(label: string, text: string, namespace: string): string {
  const rendered = text.replaceAll(PLACEHOLDER, `"${namespace}"`);
  const stray = /\{\{.*?\}\}/.exec(rendered);
  if (stray) throw new MigrationError(`${label}: unknown placeholder ${stray[0]}`);
  return rendered;
}
