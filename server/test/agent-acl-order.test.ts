/**
 * pprof and monitor check the caller's token before they resolve `server_id` (issue 21, item 6): a
 * caller without the right gets the same 403 for a server that exists and for one that does not, and
 * the request is never forwarded. Two ACL-enabled servers joined over HTTP on loopback.
 */
import type { IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, closeAll, eventually, json, startAgent, TOKENS, type Agent } from "./agent-harness.js";

let alpha: Agent;
let bravo: Agent;
/** The URLs of the pprof and monitor requests that reached bravo. */
const atBravo: string[] = [];

beforeAll(async () => {
  const tokens = Object.values(TOKENS);
  alpha = await startAgent({ nodeName: "alpha", tokens });
  bravo = await startAgent({ nodeName: "bravo", tokens });
  // Every HTTP request that reaches bravo's listener, streams and hijacked replies included.
  bravo.app.server.on("request", (request: IncomingMessage) => {
    if (request.url !== undefined && /\/v1\/agent\/(pprof|monitor)/.test(request.url)) atBravo.push(request.url);
  });
  const joined = await fetch(`${alpha.base}/v1/agent/join?address=${bravo.address}`, { method: "POST", headers: auth(TOKENS.management) });
  expect(joined.status).toBe(200);
  // alpha knows bravo as an alive member.
  await eventually(async () => {
    const members = await json<{ Members: { Name: string; Status: string }[] }>(await fetch(`${alpha.base}/v1/agent/members`, { headers: auth(TOKENS.management) }));
    return members.Members.some((m) => m.Name === "bravo.global" && m.Status === "alive") ? true : undefined;
  }, "bravo alive in alpha's member list");
});
afterAll(closeAll);

const ENDPOINTS: [name: string, path: string, allowed: (typeof TOKENS)[keyof typeof TOKENS]][] = [
  ["pprof", "/v1/agent/pprof/cmdline", TOKENS.agentWrite],
  ["monitor", "/v1/agent/monitor?plain=true", TOKENS.agentRead],
];

describe.each(ENDPOINTS)("%s with server_id", (_name, path, allowed) => {
  const withServer = (id: string): string => `${alpha.base}${path}${path.includes("?") ? "&" : "?"}server_id=${encodeURIComponent(id)}`;

  it.each([
    ["no token", undefined],
    ["a token with no capability", TOKENS.nothing],
    ["a node:read token", TOKENS.nodeRead],
  ])("%s: the same 403 for an unknown server and a known one, and nothing is forwarded", async (_who, token) => {
    const seen = atBravo.length;
    const answers = [];
    for (const id of ["nobody", "bravo.global", "bravo", "leader"]) {
      const response = await fetch(withServer(id), { headers: auth(token) });
      answers.push({ id, status: response.status, type: response.headers.get("content-type"), body: await response.text() });
    }
    for (const answer of answers) expect(answer).toEqual({ id: answer.id, status: 403, type: "text/plain; charset=utf-8", body: "Permission denied" });
    expect(atBravo.slice(seen)).toEqual([]);
  });

  it("a token with the right: 404 for an unknown server, and the known one answers through the forward", async () => {
    const unknown = await fetch(withServer("nobody"), { headers: auth(allowed) });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe("Unknown server: nobody");
    const seen = atBravo.length;
    const controller = new AbortController();
    const known = await fetch(withServer("bravo.global"), { headers: auth(allowed), signal: controller.signal });
    expect(known.status).toBe(200);
    controller.abort();
    expect(atBravo.length).toBeGreaterThan(seen);
  });

  it("both server_id and node_id is still the parameter's 400, before the token", async () => {
    const response = await fetch(`${withServer("nobody")}&node_id=x`);
    expect(response.status).toBe(400);
  });
});
