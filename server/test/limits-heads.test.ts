/**
 * Request heads that arrive in pieces, over real HTTP on loopback (each test from loopback addresses
 * of its own, so that one client's share never depends on another test): they are answered as the
 * same head sent whole, bodies and keep-alive requests after them too; the headers timeout runs from
 * a keep-alive head's first piece; what unfinished heads hold is bounded per client (the server's own
 * count, read from the process's budget), and a client past its bound is answered 503 while another
 * client's 1 MiB head is still served; a head past 1 MiB + 4 KiB is 431. Then the gate with small
 * bounds (the total, a used-up share of the loop's time), and the laws of its parts.
 */
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../src/context.js";
import { MAX_HEAD_BYTES } from "../src/ops/connections.js";
import { HeadBudget, HEADS_IN_PROGRESS, HEAD_BYTES_PER_CLIENT, type HeadBounds } from "../src/ops/head-budget.js";
import { clientOfAddress } from "../src/turns.js";
import { gateHeads, headEnd } from "../src/ops/head-gate.js";
import type { RunningServer } from "../src/ops/start.js";
import { until } from "../../test/support/wait.js";
import { startServer } from "../src/ops/start.js";
import { Turns } from "../src/turns.js";
import { runs } from "../../test/support/runs.js";

const MiB = 1024 * 1024;

let server: RunningServer;
/**
 * The same server with a shorter request timeout (5 s: headers within it too), far longer than a head
 * in a few pieces takes to arrive on a busy machine, so that only a head that never ends meets it.
 */
let hurried: RunningServer;
beforeAll(async () => {
  server = await startServer({ ...DEFAULT_OPTIONS, port: 0, opsPort: 0, logLevel: "error" });
  hurried = await startServer({ ...DEFAULT_OPTIONS, port: 0, opsPort: 0, logLevel: "error", requestTimeoutMs: 5_000 });
});
afterAll(async () => {
  await server.lifecycle.shutdown();
  await hurried.lifecycle.shutdown();
});

const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});


/** A raw connection to `base` from the loopback address `from`, and everything it reads. */
async function open(base: string, from: string): Promise<{ socket: Socket; text: () => string; closed: Promise<void> }> {
  const { hostname, port } = new URL(base);
  const socket = connect({ host: hostname, port: Number(port), localAddress: from });
  sockets.push(socket);
  let text = "";
  socket.on("data", (d: Buffer) => (text += d.toString("latin1")));
  // A server that refuses a head before reading all of it may reset the rest: what it wrote counts.
  socket.on("error", () => undefined);
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  await new Promise<void>((resolve) => socket.once("connect", resolve));
  return { socket, text: () => text, closed };
}

/** A response read from raw text: status line, lower-cased headers, body (a chunked one decoded). */
function response(text: string): { status: string; headers: string; body: string } {
  const end = text.indexOf("\r\n\r\n");
  const [status = "", ...lines] = text.slice(0, end).split("\r\n");
  const headers = lines.join("\n").toLowerCase();
  let body = text.slice(end + 4);
  if (headers.includes("transfer-encoding: chunked")) {
    let decoded = "";
    for (let at = 0; ; ) {
      const eol = body.indexOf("\r\n", at);
      const size = Number.parseInt(body.slice(at, eol), 16);
      if (!(size > 0)) break;
      decoded += body.slice(eol + 2, eol + 2 + size);
      at = eol + 2 + size + 2;
    }
    body = decoded;
  }
  return { status, headers, body };
}

/** A GET head of `target` (which has a query string) padded to exactly `bytes` bytes in a `pad` parameter. */
function paddedHead(target: string, bytes: number, extra = "Connection: close\r\n"): Buffer {
  const head = (pad: string): string => `GET ${target}&pad=${pad} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}\r\n`;
  const text = head("p".repeat(bytes - head("").length));
  expect(text.length).toBe(bytes);
  return Buffer.from(text, "latin1");
}

/**
 * Writes `data` on `connection` in `pieces` pieces, each once the server took the one before (so that
 * each arrives as a read of its own), unless the server answered meanwhile; the last piece is written
 * without waiting for anything.
 */
async function writeInPieces(connection: { socket: Socket; text: () => string }, client: string, data: Buffer, pieces: number): Promise<void> {
  const size = Math.ceil(data.length / pieces);
  const before = HEADS_IN_PROGRESS.bytes(client);
  for (let at = 0; at < data.length && connection.text() === ""; at += size) {
    const piece = data.subarray(at, at + size);
    connection.socket.write(piece);
    if (at + size < data.length) await until("the server to take a piece", () => HEADS_IN_PROGRESS.bytes(client) - before >= at + piece.length || connection.text() !== "");
  }
}

/** The answer to `head` written in `pieces` pieces from `from`, once the server closed the connection. */
async function askInPieces(base: string, from: string, head: Buffer, pieces: number): Promise<{ status: string; headers: string; body: string }> {
  const connection = await open(base, from);
  await writeInPieces(connection, from, head, pieces);
  await connection.closed;
  return response(connection.text());
}

describe("a head that arrives in pieces", () => {
  it("a 1 MiB head in 32 pieces is answered as the same request sent whole, and holds nothing once answered", async () => {
    const target = "/v1/jobs?per_page=2&namespace=*";
    const whole = await (await fetch(`${server.apiUrl}${target}`)).text();
    const answer = await askInPieces(server.apiUrl, "127.0.0.11", paddedHead(target, MiB), 32);
    expect(answer.status).toBe("HTTP/1.1 200 OK");
    expect(answer.body).toBe(whole);
    expect(HEADS_IN_PROGRESS.bytes("127.0.0.11")).toBe(0);
  });

  it("one client sending 1 MiB heads in pieces one after another is served every time (the ops listener too)", async () => {
    for (let i = 0; i < 3; i++) {
      expect((await askInPieces(server.apiUrl, "127.0.0.12", paddedHead(`/v1/jobs?per_page=1&i=${i}`, MiB), 16)).status).toBe("HTTP/1.1 200 OK");
    }
    const health = await askInPieces(server.opsUrl, "127.0.0.12", paddedHead("/health?worker_info=0", MiB), 16);
    expect(health.status).toBe("HTTP/1.1 200 OK");
  });

  it("a body after a head in pieces, and the next request on the connection, are read as ever", async () => {
    // The body is JSON and 200 KB of white space after it, written in pieces too.
    const body = `${JSON.stringify({ Job: { ID: "pieced-head", TaskGroups: [{ Name: "web", Count: 1 }] } })}${" ".repeat(200_000)}`;
    const head = `PUT /v1/jobs?pad=${"p".repeat(300_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const connection = await open(server.apiUrl, "127.0.0.13");
    await writeInPieces(connection, "127.0.0.13", Buffer.from(head, "latin1"), 8);
    for (let at = 0; at < body.length; at += 50_000) connection.socket.write(body.slice(at, at + 50_000));
    await until("the registration's answer", () => connection.text().includes("\r\n\r\n"));
    expect(response(connection.text()).status).toBe("HTTP/1.1 200 OK");
    // The same connection: a request in one piece, then the registered job is listed.
    connection.socket.write("GET /v1/jobs?prefix=pieced-head HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    await connection.closed;
    const second = response(connection.text().slice(connection.text().lastIndexOf("HTTP/1.1 ")));
    expect(second.status).toBe("HTTP/1.1 200 OK");
    expect((JSON.parse(second.body) as { ID: string }[]).map((j) => j.ID)).toEqual(["pieced-head"]);
  });

  it("a head in pieces longer than 1 MiB + 4 KiB is 431 in plain text, and what it held is given back", async () => {
    const answer = await askInPieces(server.apiUrl, "127.0.0.14", paddedHead("/v1/jobs?per_page=1", MAX_HEAD_BYTES + 64 * 1024), 32);
    expect(answer.status).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expect(answer.headers).toContain("content-type: text/plain; charset=utf-8");
    expect(answer.body).toBe("431 Request Header Fields Too Large");
    expect(HEADS_IN_PROGRESS.bytes("127.0.0.14")).toBe(0);
  });

  it("on a keep-alive connection the headers timeout runs from the next head's first piece (408)", async () => {
    const connection = await open(hurried.apiUrl, "127.0.0.15");
    // A first head in pieces (from then on the gate reads the connection), answered.
    await writeInPieces(connection, "127.0.0.15", paddedHead("/v1/jobs?per_page=1", 200_000, ""), 4);
    await until("the first answer", () => /\r\n\r\n\[/.test(connection.text()));
    const first = connection.text();
    // The next head: two pieces, the second held back by the server, and never an end.
    const partial = Buffer.from(`GET /v1/jobs?pad=${"p".repeat(100_001)}`, "latin1");
    connection.socket.write(partial.subarray(0, 50_000));
    await until("the server to take the first piece", () => HEADS_IN_PROGRESS.bytes("127.0.0.15") === 50_000);
    connection.socket.write(partial.subarray(50_000));
    await until("the server to take the second piece", () => HEADS_IN_PROGRESS.bytes("127.0.0.15") === partial.length);
    await connection.closed;
    expect(response(connection.text().slice(first.length)).status).toBe("HTTP/1.1 408 Request Timeout");
    await until("the held bytes given back", () => HEADS_IN_PROGRESS.bytes("127.0.0.15") === 0);
  });
});

describe("what unfinished heads may hold, per client", () => {
  it(`a client past ${HEAD_BYTES_PER_CLIENT / MiB} MiB of unfinished heads is answered 503; the server never holds more for it, and another client's 1 MiB head is served`, async () => {
    const attacker = "127.0.0.16";
    const partial = paddedHead("/v1/jobs?per_page=1", MiB).subarray(0, MiB - 4096);
    const refused: string[] = [];
    let holding = 0;
    for (let i = 0; i < 12 && refused.length === 0; i++) {
      const connection = await open(server.apiUrl, attacker);
      const before = HEADS_IN_PROGRESS.bytes(attacker);
      connection.socket.write(partial);
      await until("the piece taken or refused", () => HEADS_IN_PROGRESS.bytes(attacker) - before === partial.length || connection.text().includes("\r\n\r\n"));
      if (connection.text() !== "") {
        await connection.closed;
        refused.push(connection.text());
      } else holding++;
      expect(HEADS_IN_PROGRESS.bytes(attacker)).toBeLessThanOrEqual(HEAD_BYTES_PER_CLIENT);
      expect(HEADS_IN_PROGRESS.bytes(attacker)).toBe(holding * partial.length);
    }
    expect(holding).toBeGreaterThan(0);
    expect(holding).toBeLessThanOrEqual(Math.floor(HEAD_BYTES_PER_CLIENT / partial.length));
    expect(refused).toHaveLength(1);
    const answer = response(refused[0] as string);
    expect(answer.status).toBe("HTTP/1.1 503 Service Unavailable");
    expect(answer.headers).toContain("retry-after: 1");
    expect(answer.headers).toContain("connection: close");

    // The attacker's heads are still held; another address is served, in pieces or not.
    const other = await askInPieces(server.apiUrl, "127.0.0.17", paddedHead("/v1/jobs?per_page=1", MiB), 16);
    expect(other.status).toBe("HTTP/1.1 200 OK");
    expect((await fetch(`${server.apiUrl}/v1/jobs?per_page=1`)).status).toBe(200);
    expect(HEADS_IN_PROGRESS.bytes(attacker)).toBe(holding * partial.length);

    // The attacker's connections closed: everything they held is given back.
    for (const s of sockets.splice(0)) s.destroy();
    await until("the held bytes given back", () => HEADS_IN_PROGRESS.bytes(attacker) === 0);
  });
});

describe("the gate with small bounds", () => {
  /** A plain HTTP server answering `ok`, its heads gated with `bounds`. */
  async function gated(bounds: HeadBounds): Promise<{ base: string; budget: HeadBudget; close: () => Promise<void> }> {
    const budget = new HeadBudget(bounds);
    const http: Server = createServer({ maxHeaderSize: MAX_HEAD_BYTES }, (req, res) => {
      req.resume();
      res.end(`ok ${req.url?.length ?? 0}`);
    });
    http.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => socket.end(`HTTP/1.1 ${err.code === "ERR_HEADS_OVER_BUDGET" ? 503 : 400} x\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`));
    gateHeads(http, budget, new Turns(), MAX_HEAD_BYTES);
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    return { base, budget, close: () => new Promise((resolve) => http.close(() => resolve())) };
  }

  it("past the total, a third client's piece is refused (503) while two others hold theirs", async () => {
    const { base, budget, close } = await gated({ bytesPerClient: MiB, bytesInTotal: 2 * MiB, loopMsPerClient: 1000, loopMsInTotal: 1000, burstMs: 1000 });
    try {
      const partial = Buffer.from(`GET /?pad=${"p".repeat(900 * 1024)}`, "latin1");
      for (const from of ["127.0.0.21", "127.0.0.22"]) {
        const connection = await open(base, from);
        connection.socket.write(partial);
        await until("the partial head held", () => budget.bytes(from) === partial.length);
      }
      const third = await open(base, "127.0.0.23");
      third.socket.write(partial);
      await third.closed;
      expect(response(third.text()).status).toBe("HTTP/1.1 503 x");
      expect(budget.bytes()).toBe(2 * partial.length);
      expect(budget.bytes("127.0.0.23")).toBe(0);
    } finally {
      for (const s of sockets.splice(0)) s.destroy();
      await close();
    }
  });

  it("a client with no share of the loop's time left is refused its heads in pieces, and served its heads in one piece", async () => {
    const { base, close } = await gated({ bytesPerClient: 8 * MiB, bytesInTotal: 8 * MiB, loopMsPerClient: 0, loopMsInTotal: 1000, burstMs: 0 });
    try {
      const small = await open(base, "127.0.0.24");
      small.socket.write("GET /?a=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      await small.closed;
      expect(response(small.text()).body).toBe("ok 5");
      const pieced = await open(base, "127.0.0.24");
      pieced.socket.write("GET /?a=");
      await pieced.closed;
      expect(response(pieced.text()).status).toBe("HTTP/1.1 503 x");
    } finally {
      await close();
    }
  });
});

describe("laws", () => {
  const bytesArb = fc.array(fc.constantFrom("a", "b", "\r", "\n", " ", ":"), { maxLength: 40 }).map((cs) => Buffer.from(cs.join(""), "latin1"));

  it("headEnd finds, piece by piece, where the first empty line ends, wherever the pieces are cut", () => {
    fc.assert(
      fc.property(bytesArb, fc.array(fc.nat(), { maxLength: 6 }), (data, cuts) => {
        const text = data.toString("latin1");
        const ends = [text.indexOf("\n\n"), text.indexOf("\n\r\n")].filter((i) => i >= 0).map((i) => (text[i + 1] === "\n" ? i + 2 : i + 3));
        const end = ends.length === 0 ? -1 : Math.min(...ends);
        const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
        const pieces = [0, ...points, data.length].slice(1).map((to, i, all) => data.subarray(i === 0 ? 0 : all[i - 1], to)).filter((p) => p.length > 0);
        let carry = 0;
        let seen = 0;
        let foundIn = -1;
        for (const [i, piece] of pieces.entries()) {
          carry = headEnd(piece, carry);
          seen += piece.length;
          if (carry < 0) {
            foundIn = i;
            break;
          }
        }
        if (end < 0) expect(foundIn).toBe(-1);
        else {
          // The piece that holds the empty line's last byte.
          const before = pieces.slice(0, foundIn).reduce((n, p) => n + p.length, 0);
          expect(foundIn).toBeGreaterThanOrEqual(0);
          expect(end).toBeGreaterThan(before);
          expect(end).toBeLessThanOrEqual(seen);
        }
      }),
      { numRuns: runs(2000) },
    );
  });

  it("a budget never holds more than its bounds, and gives back exactly what it held", () => {
    const ops = fc.array(fc.record({ client: fc.constantFrom("a", "b", "c"), bytes: fc.integer({ min: 1, max: 40 }), give: fc.boolean() }), { maxLength: 60 });
    fc.assert(
      fc.property(ops, (steps) => {
        const budget = new HeadBudget({ bytesPerClient: 50, bytesInTotal: 90, loopMsPerClient: 1, loopMsInTotal: 1, burstMs: 1 });
        const held = new Map<string, number[]>();
        for (const { client, bytes, give } of steps) {
          const mine = held.get(client) ?? [];
          if (give && mine.length > 0) budget.give(client, mine.pop() as number);
          else if (budget.take(client, bytes, false)) mine.push(bytes);
          held.set(client, mine);
          const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
          for (const c of ["a", "b", "c"]) {
            expect(budget.bytes(c)).toBe(sum(held.get(c) ?? []));
            expect(budget.bytes(c)).toBeLessThanOrEqual(50);
          }
          expect(budget.bytes()).toBe(sum([...held.values()].flat()));
          expect(budget.bytes()).toBeLessThanOrEqual(90);
        }
      }),
    );
  });

  it("the heads a client starts take at most its burst, its rate over the time that passed, and one head more of the loop's time", () => {
    const steps = fc.array(fc.record({ wait: fc.integer({ min: 0, max: 500 }), cost: fc.integer({ min: 0, max: 300 }) }), { maxLength: 80 });
    fc.assert(
      fc.property(steps, (run) => {
        let now = 0;
        const bounds = { bytesPerClient: MiB, bytesInTotal: MiB, loopMsPerClient: 50, loopMsInTotal: 1e9, burstMs: 250 };
        const budget = new HeadBudget(bounds, () => now);
        let spent = 0;
        for (const { wait, cost } of run) {
          now += wait;
          if (!budget.take("c", 1, true)) continue;
          budget.give("c", 1);
          budget.charge("c", cost);
          spent += cost;
          expect(spent).toBeLessThanOrEqual(bounds.burstMs + (bounds.loopMsPerClient * now) / 1000 + 300);
        }
      }),
    );
  });

  it("clientOfAddress: an IPv6 address stands for its /64 however it is written; IPv4 (mapped or not) for itself", () => {
    const group = fc.integer({ min: 0, max: 0xffff });
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), fc.array(group, { minLength: 4, maxLength: 4 }), (groups, other) => {
        const full = groups.map((g) => g.toString(16)).join(":");
        const padded = groups.map((g) => g.toString(16).padStart(4, "0").toUpperCase()).join(":");
        // The longest run of zero groups written `::` (as the standard form writes it).
        const zeros = full.replace(/(^|:)0(:0)+(:|$)/, "::");
        const key = clientOfAddress(full);
        expect(clientOfAddress(padded)).toBe(key);
        expect(clientOfAddress(zeros)).toBe(key);
        expect(clientOfAddress(`${full}%eth0`)).toBe(key);
        expect(clientOfAddress([...groups.slice(0, 4), ...other].map((g) => g.toString(16)).join(":"))).toBe(key);
        const elsewhere = [...other, ...groups.slice(4)].map((g) => g.toString(16)).join(":");
        if (other.some((g, i) => g !== groups[i])) expect(clientOfAddress(elsewhere)).not.toBe(key);
      }),
    );
    expect(clientOfAddress("::ffff:127.0.0.2")).toBe("127.0.0.2");
    expect(clientOfAddress("127.0.0.2")).toBe("127.0.0.2");
    expect(clientOfAddress("::1")).toBe("0:0:0:0/64");
    expect(clientOfAddress("2001:db8::1")).toBe(clientOfAddress("2001:db8:0:0:ffff::2"));
  });
});
