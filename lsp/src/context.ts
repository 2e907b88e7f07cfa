/** What every feature reads of a document: its filters, the schema of each, the settings' analyser. */
import type { Schema } from "filter-expr";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { Analyser } from "./analyse.js";
import { isFilterFile, regionsOf, type Region } from "./regions.js";
import { namedSchema, type Settings } from "./settings.js";

/** The settings in force and the analyser made for them. */
export interface Context {
  readonly settings: Settings;
  readonly analyser: Analyser;
}

/** The filters of a document (with `emptyLines`, also a filter file's blank lines). */
export function documentRegions(doc: TextDocument, emptyLines = false): Region[] {
  return regionsOf(doc.getText(), isFilterFile(doc.uri, doc.languageId), emptyLines);
}

/** The schema of a filter: its marker's word, else the settings'. */
export function schemaOf(region: Region, settings: Settings): { schema: Schema | undefined; key: string } {
  if (region.schema !== undefined) return { schema: namedSchema(region.schema) ?? undefined, key: region.schema };
  return { schema: settings.schema, key: "" };
}

/** The filter that holds a document offset (its ends included), if any. */
export function regionAt(regions: readonly Region[], offset: number): Region | undefined {
  return regions.find((r) => r.start <= offset && offset <= r.end);
}
