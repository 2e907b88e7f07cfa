// The types of scripts/bundle-size.mjs, for test/bundle-size.test.ts.
import type { BuildResult, Metafile, OutputFile } from "esbuild";

/** An import an application writes, by name. */
export interface Scenario {
  readonly name: string;
  readonly source: string;
  readonly optional?: boolean;
}
export declare const SCENARIOS: readonly Scenario[];

export type Bundled = BuildResult & { readonly outputFiles: OutputFile[]; readonly metafile: Metafile };
export declare function bundle(source: string, options?: { splitting?: boolean; source?: boolean; minify?: boolean }): Promise<Bundled>;

export interface Size {
  readonly min: number;
  readonly gzip: number;
}
export declare function sizes(result: Bundled): { readonly entry: Size; readonly total: Size; readonly chunks: number; readonly entryText: string };

export declare function attribute(metafile: Metafile): { readonly perPackage: [string, number][]; readonly perModule: [string, number][] };
