import { connect } from "node:net";
import type { Socket } from "node:net";
import { compile, FilterSyntaxError, parse, schemas } from "filter-expr";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { LogLine } from "../src/context.js";
import { DEFAULT_OPTIONS } from "../src/context.js";
import type { RunningServer } from "../src/ops/start.js";
import { startServer } from "../src/ops/start.js";
import { until } from "../../test/support/wait.js";

// Request lines and headers up to what the scheduler's Go server reads, over real HTTP on loopback:
// or-chains as long as the reference's parse budget allows, the exact bound on a request's head on
// both listeners, and log lines of long URLs.

/**
 * What Go's server reads of a request's head (`initialReadLimitSize`: `http.DefaultMaxHeaderBytes`,
 * 1 MiB, plus 4096 bytes of bufio slop): request line, header lines and the empty line, CRLFs included.
 */
const GO_HEAD_BYTES = 1_048_576 + 4096;

let server: RunningServer;
/** IDs of some jobs of the demo data (default namespace). */
let ids: string[];
beforeAll(async () => {
  server = await startServer({ ...DEFAULT_OPTIONS, port: 0, opsPort: 0, logLevel: "error" });
  const jobs = (await (await fetch(`${server.apiUrl}/v1/jobs`)).json()) as { ID: string }[];
  ids = jobs.slice(0, 20).map((j) => j.ID);
});
afterAll(async () => server.lifecycle.shutdown());

const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});

/** `ID == "…"` terms joined by `or`: the given IDs, then IDs no job has, `count` terms in all. */
function chain(known: readonly string[], count: number): string {
  return Array.from({ length: count }, (_, i) => `ID == "${i < known.length ? known[i] : `none-${i}`}"`).join(" or ");
}

/** The most terms of `chain(known, n)` the reference's parse budget accepts (the library replays it). */
function longestChain(known: readonly string[]): number {
  const accepted = (n: number): boolean => {
    try {
      parse(chain(known, n));
      return true;
    } catch (e) {
      if (e instanceof FilterSyntaxError && e.code === "too-many-expressions") return false;
      throw e;
    }
  };
  let [lo, hi] = [1000, 10_000];
  expect(accepted(lo) && !accepted(hi)).toBe(true);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (accepted(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** The answer of `GET /v1/jobs?filter=…`: status, content type, body. */
async function jobs(filter: string): Promise<{ status: number; type: string | null; body: string }> {
  const res = await fetch(`${server.apiUrl}/v1/jobs?filter=${encodeURIComponent(filter)}`);
  return { status: res.status, type: res.headers.get("content-type"), body: await res.text() };
}

/**
 * A GET head of exactly `bytes` bytes for `target` (which has a query string): the missing bytes go
 * half to a `pad` query parameter, half to an `X-Pad` header.
 */
function headOf(bytes: number, target: string): string {
  const head = (query: string, header: string): string =>
    `GET ${target}&pad=${query} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Pad: ${header}\r\n\r\n`;
  const missing = bytes - head("", "").length;
  const half = Math.floor(missing / 2);
  const text = head("p".repeat(half), "h".repeat(missing - half));
  expect(Buffer.byteLength(text)).toBe(bytes);
  return text;
}

/** Sends `head` on a new connection to `base`; resolves with everything the server wrote once it closed the connection. */
async function exchange(base: string, head: string): Promise<{ status: string; headers: string; body: string }> {
  const { hostname, port } = new URL(base);
  const socket = connect({ host: hostname, port: Number(port) });
  sockets.push(socket);
  let text = "";
  socket.on("data", (d: Buffer) => (text += d.toString("latin1")));
  // A server that answers before reading the whole head may reset the rest: what it wrote counts.
  socket.on("error", () => undefined);
  await new Promise<void>((resolve) => socket.once("connect", resolve));
  socket.write(head);
  await new Promise<void>((resolve) => socket.once("close", () => resolve()));
  const end = text.indexOf("\r\n\r\n");
  const [status = "", ...headers] = text.slice(0, end).split("\r\n");
  return { status, headers: headers.join("\n").toLowerCase(), body: text.slice(end + 4) };
}

describe("or-chains as long as the reference's parse budget allows", () => {
  it("the longest chain the budget accepts (about 190 KiB in the URL) answers the items of the short filter", async () => {
    const n = longestChain(ids);
    const filter = chain(ids, n);
    expect(encodeURIComponent(filter).length).toBeGreaterThan(150 * 1024);
    const short = await jobs(chain(ids, ids.length));
    expect(short.status).toBe(200);
    expect((JSON.parse(short.body) as { ID: string }[]).map((j) => j.ID).sort()).toEqual([...ids].sort());
    const long = await jobs(filter);
    expect(long.status).toBe(200);
    expect(long.body).toBe(short.body);
  });

  it("one term more is the reference's syntax error (400, too many expressions), not 431", async () => {
    const filter = chain(ids, longestChain(ids) + 1);
    let expected = "";
    try {
      compile(filter, { schema: schemas.job });
    } catch (e) {
      expect((e as FilterSyntaxError).code).toBe("too-many-expressions");
      expected = `failed to create result paginator: failed to read filter expression: ${(e as Error).message}`;
    }
    const res = await jobs(filter);
    expect(res.status).toBe(400);
    expect(res.type).toBe("text/plain; charset=utf-8");
    expect(res.body).toBe(expected);
    expect(res.body).toMatch(/max number of expressions parsed/);
  });

  it("a filter longer than 1,048,576 characters, which a head may hold, is also the reference's parse-budget error", async () => {
    // `ID == "x"` and 1,048,600 spaces (`+`): the reference has no length limit, its budget runs out.
    const res = await fetch(`${server.apiUrl}/v1/jobs?filter=ID+%3D%3D+%22x%22${"+".repeat(1_048_600)}`);
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/^failed to create result paginator: failed to read filter expression: max number of expressions parsed: /);
  });
});

describe("request heads up to Go's 1 MiB + 4 KiB", () => {
  it(`API: a head of exactly ${GO_HEAD_BYTES} bytes is answered; one byte more (or 2 MiB) is 431 in plain text, connection closed`, async () => {
    const target = `/v1/jobs?filter=${encodeURIComponent(`ID == "${ids[0]}"`)}`;
    const fits = await exchange(server.apiUrl, headOf(GO_HEAD_BYTES, target));
    expect(fits.status).toBe("HTTP/1.1 200 OK");
    expect((JSON.parse(fits.body) as { ID: string }[]).map((j) => j.ID)).toEqual([ids[0]]);

    for (const bytes of [GO_HEAD_BYTES + 1, 2 * 1_048_576]) {
      const over = await exchange(server.apiUrl, headOf(bytes, target));
      expect(over.status).toBe("HTTP/1.1 431 Request Header Fields Too Large");
      expect(over.headers).toContain("content-type: text/plain; charset=utf-8");
      expect(over.headers).toContain("connection: close");
      expect(over.body).toBe("431 Request Header Fields Too Large");
    }
  });

  it(`ops: /health with a head of exactly ${GO_HEAD_BYTES} bytes is answered; one byte more is 431 with an empty body`, async () => {
    const fits = await exchange(server.opsUrl, headOf(GO_HEAD_BYTES, "/health?worker_info=0"));
    expect(fits.status).toBe("HTTP/1.1 200 OK");

    for (const bytes of [GO_HEAD_BYTES + 1, 2 * 1_048_576]) {
      const over = await exchange(server.opsUrl, headOf(bytes, "/health?worker_info=0"));
      expect(over.status).toBe("HTTP/1.1 431 Request Header Fields Too Large");
      expect(over.headers).toContain("content-length: 0");
      expect(over.body).toBe("");
    }
  });

  it("a path of about 1 MiB is an unknown path (404), as any other", async () => {
    const res = await fetch(`${server.apiUrl}/v1/${"p".repeat(1_000_000)}`);
    expect(res.status).toBe(404);
    const apply = await fetch(`${server.apiUrl}/api/v2/applies/${"a".repeat(1_000_000)}`);
    expect(apply.status).toBe(404);
  });
});

describe("log lines of long URLs", () => {
  it("a request's log line holds the first 2,048 characters of its URL and the URL's length", async () => {
    const lines: LogLine[] = [];
    const listen = (line: LogLine): number => lines.push(line);
    server.ctx.logEvents.on("line", listen);
    try {
      // A listener turns debug lines on at the next turn of the event loop.
      await until("debug lines on", () => server.app.log.level === "trace", 0);
      const url = `/v1/jobs?filter=${encodeURIComponent(`ID == "${ids[0]}"`)}&pad=${"p".repeat(1_000_000)}`;
      const res = await fetch(`${server.apiUrl}${url}`);
      expect(res.status).toBe(200);
      await res.text();
      let line: LogLine | undefined;
      await until("the request's log line", () => (line = lines.find((l) => l.msg === "request complete" && l.json.includes("&pad=p"))) !== undefined, 0);
      const logged = JSON.parse(line!.json) as { url?: string };
      expect(logged.url).toBe(`${url.slice(0, 2048)}… (${url.length} bytes)`);
    } finally {
      server.ctx.logEvents.off("line", listen);
    }
  });
});
