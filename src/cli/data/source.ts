/** Where `--data` comes from: a file or standard input, opened early so that a bad path is a usage error. */
import { open } from "node:fs/promises";
import type { Readable } from "node:stream";
import { UsageError } from "../args.js";
import { fileProblem } from "../schema-file.js";

/** An opened data source: its text in chunks, and a name for messages. */
export interface DataSource {
  readonly name: string;
  readonly chunks: AsyncIterable<string>;
}

/** Opens `--data` (`-` is standard input). Throws `UsageError` when the file cannot be read. */
export async function openData(spec: string, stdin: Readable): Promise<DataSource> {
  if (spec === "-") {
    stdin.setEncoding("utf8");
    return { name: "standard input", chunks: stdin as AsyncIterable<string> };
  }
  let handle;
  try {
    handle = await open(spec, "r");
    const stat = await handle.stat();
    if (stat.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
  } catch (e) {
    await handle?.close();
    throw new UsageError(`cannot read the data file ${spec}: ${fileProblem(e)}`);
  }
  const stream = handle.createReadStream({ encoding: "utf8", highWaterMark: 1 << 16, autoClose: true });
  return { name: spec, chunks: stream as AsyncIterable<string> };
}
