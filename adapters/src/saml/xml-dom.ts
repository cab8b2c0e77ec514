import { createRequire } from "node:module";

/**
 * The few DOM shapes the SAML code reads. @xmldom/xmldom and xpath are loaded through `require` with
 * these types rather than their own, whose `/// <reference lib="dom" />` would bring the browser's
 * globals into every package's type check.
 */
export interface XmlElement {
  readonly localName: string;
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
}
export interface XmlDocument {
  readonly documentElement: XmlElement | null;
}

interface ErrorHandler {
  warning(): void;
  error(): void;
  fatalError(): void;
}
interface XmlLibraries {
  DOMParser: new (options: {
    errorHandler: ErrorHandler;
  }) => {
    parseFromString(text: string, mime: string): XmlDocument | undefined;
  };
  xpath: { select(path: string, node: unknown): unknown };
}
/** Required at the first document parsed: a server without SAML never loads them. */
let libraries: XmlLibraries | undefined;
function xmlLibraries(): XmlLibraries {
  if (libraries === undefined) {
    const require = createRequire(import.meta.url);
    libraries = {
      DOMParser: (require("@xmldom/xmldom") as Pick<XmlLibraries, "DOMParser">).DOMParser,
      xpath: require("xpath") as XmlLibraries["xpath"],
    };
  }
  return libraries;
}

/** A document, or null when the text is not well-formed XML (any parser error or warning refuses it). */
export function parseXml(text: string): XmlDocument | null {
  let failed = false;
  const fail = () => {
    failed = true;
  };
  const { DOMParser } = xmlLibraries();
  const parser = new DOMParser({ errorHandler: { warning: fail, error: fail, fatalError: fail } });
  try {
    const doc = parser.parseFromString(text, "text/xml");
    return failed || doc?.documentElement == null ? null : doc;
  } catch {
    return null;
  }
}

/** The elements an XPath (written with `local-name()`) selects under `node`. */
export function elements(node: XmlDocument | XmlElement, path: string): XmlElement[] {
  const found = xmlLibraries().xpath.select(path, node);
  return Array.isArray(found) ? (found as XmlElement[]) : [];
}

/** The text of an element, trimmed. */
export const textOf = (element: XmlElement | undefined): string => (element?.textContent ?? "").trim();
