/**
 * The query string parser (Go's `url.ParseQuery`, read in one pass) against a plain transcription of
 * Go 1.23's `parseQuery` and `unescape` (net/url), for random query strings made of the characters
 * that matter (`&`, `=`, `;`, `%`, `+`, hex digits and others, a character past ASCII); and, through
 * the server, that a query string of a megabyte of pairs in each expensive shape is answered as a
 * short one is.
 */
import { request } from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../src/context.js";
import type { RunningServer } from "../src/ops/start.js";
import { startServer } from "../src/ops/start.js";
import { parseGoQuery, queryUnescape } from "../src/scheduler/go-query.js";
import { runs } from "../../test/support/runs.js";

/** Go's `unescape(s, encodeQueryComponent)` over the UTF-8 bytes of `s`: undefined where Go errs. */
function goUnescape(s: string): string | undefined {
  const bytes = [...Buffer.from(s, "utf8")];
  const isHex = (b: number | undefined): boolean => b !== undefined && /[0-9a-fA-F]/.test(String.fromCharCode(b));
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b === 0x25) {
      if (i + 2 >= bytes.length || !isHex(bytes[i + 1]) || !isHex(bytes[i + 2])) return undefined;
      out.push(Number.parseInt(String.fromCharCode(bytes[i + 1] as number, bytes[i + 2] as number), 16));
      i += 2;
    } else out.push(b === 0x2b ? 0x20 : b);
  }
  // The server reads the bytes as UTF-8 (Go keeps them as they are).
  return Buffer.from(out).toString("utf8");
}

/** Go's `parseQuery`: the values of each key in order. */
function goParseQuery(query: string): Map<string, string[]> {
  const m = new Map<string, string[]>();
  let rest: string | undefined = query;
  while (rest !== undefined && rest !== "") {
    const amp: number = rest.indexOf("&");
    const pair: string = amp < 0 ? rest : rest.slice(0, amp);
    rest = amp < 0 ? undefined : rest.slice(amp + 1);
    if (pair.includes(";") || pair === "") continue;
    const eq = pair.indexOf("=");
    const key = goUnescape(eq < 0 ? pair : pair.slice(0, eq));
    if (key === undefined) continue;
    const value = goUnescape(eq < 0 ? "" : pair.slice(eq + 1));
    if (value === undefined) continue;
    m.set(key, [...(m.get(key) ?? []), value]);
  }
  return m;
}

/** `parseGoQuery`'s answer as key → values (a single value is a list of one). */
function asMap(parsed: Record<string, string | string[]>): Map<string, string[]> {
  return new Map(Object.keys(parsed).map((k) => [k, [parsed[k] as string | string[]].flat()]));
}

const queryArb = fc.array(fc.constantFrom("&", "=", ";", "%", "+", "4", "1", "f", "F", "g", "a", "b", " ", "é", "%2", "%41", "%C3%A9", "%zz"), { maxLength: 40 }).map((parts) => parts.join(""));

describe("parseGoQuery reads a query string as Go's url.ParseQuery does", () => {
  it("the same keys and values, in order, as a transcription of Go's parseQuery, for random query strings", () => {
    fc.assert(
      fc.property(queryArb, (query) => {
        const parsed = parseGoQuery(query);
        expect(asMap(parsed)).toEqual(goParseQuery(query));
        expect(Object.getPrototypeOf(parsed)).toBe(null);
      }),
      { numRuns: runs(5000) },
    );
  });

  it("queryUnescape decodes one component as Go's QueryUnescape does", () => {
    fc.assert(
      fc.property(queryArb, (component) => {
        expect(queryUnescape(component)).toBe(goUnescape(component));
      }),
      { numRuns: runs(5000) },
    );
  });

  it("keys named like an object's own properties are plain keys", () => {
    const parsed = parseGoQuery("__proto__=1&constructor=2&toString=3&__proto__=4");
    expect(asMap(parsed)).toEqual(
      new Map([
        ["__proto__", ["1", "4"]],
        ["constructor", ["2"]],
        ["toString", ["3"]],
      ]),
    );
  });
});

describe("a megabyte of query string in each expensive shape, through the server", () => {
  let server: RunningServer;
  beforeAll(async () => (server = await startServer({ ...DEFAULT_OPTIONS, port: 0, opsPort: 0, logLevel: "error" })));
  afterAll(async () => server.lifecycle.shutdown());

  const M = 1_000_000;
  const shapes: Record<string, string> = {
    "a million &": "&".repeat(M),
    "one key a quarter million times": "a=1&".repeat(M / 4),
    "a hundred thousand distinct keys": Array.from({ length: 100_000 }, (_, i) => `k${i}=1`).join("&"),
    "a megabyte of +": `pad=${"+".repeat(M)}`,
    "a megabyte of %41": `pad=${"%41".repeat(M / 3)}`,
    "escaped keys": Array.from({ length: 80_000 }, (_, i) => `%41${i}=%42`).join("&"),
  };

  /** GET `path` from the loopback address `from` (each shape from its own: a client's heads in pieces share its part of the loop). */
  function get(path: string, from: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request(`${server.apiUrl}${path}`, { localAddress: from, agent: false }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      req.end();
    });
  }

  it.each(Object.keys(shapes).map((shape, i) => [shape, `127.0.1.${i + 1}`]))("%s, then per_page=1, is answered as per_page=1 alone", async (shape, from) => {
    const short = await get("/v1/jobs?per_page=1", from);
    const long = await get(`/v1/jobs?${shapes[shape]}&per_page=1`, from);
    expect(long.status).toBe(200);
    expect(long.body).toBe(short.body);
  });
});
