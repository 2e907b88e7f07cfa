/** The parameters of `GET /v1/event/stream`. */
import { BadRequest } from "../lists/errors.js";
import { param, type Query } from "../scheduler/query.js";
import { TOPICS, type Topic } from "./schema.js";

/** The keys a stream wants of a topic: any (`"*"`), or these. */
export type TopicKeys = "*" | ReadonlySet<string>;

export interface StreamQuery {
  region?: string;
  /** Wanted topics and their keys; null: every topic, any key. */
  topics: ReadonlyMap<Topic, TopicKeys> | null;
  /** `default` when absent; `*`: every namespace the token may read. */
  namespace: string;
  /** Send the buffered events above this index first; 0: only events from now on. */
  index: number;
  /** The filter expression; "" for none. */
  filter: string;
}

function values(query: Query, name: string): string[] {
  const v = query[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/**
 * `topic=Job`, `topic=Job:*` (any key), `topic=Job:web` (that key; everything after the first colon is
 * the key), `topic=*` or `topic=*:KEY` (every topic); repeated topics add up. No `topic`: everything.
 */
function parseTopics(raw: readonly string[]): Map<Topic, TopicKeys> | null {
  if (raw.length === 0) return null;
  const wanted = new Map<Topic, Set<string> | "*">();
  for (const text of raw) {
    const colon = text.indexOf(":");
    const name = colon < 0 ? text : text.slice(0, colon);
    const key = colon < 0 ? "*" : text.slice(colon + 1);
    if (key === "") throw new BadRequest(`Invalid topic "${text}": the key after ":" is empty (use Topic or Topic:*)`);
    const topics: readonly Topic[] | undefined = name === "*" ? TOPICS : TOPICS.includes(name as Topic) ? [name as Topic] : undefined;
    if (topics === undefined) throw new BadRequest(`Invalid topic ${JSON.stringify(name)}: this server's topics are ${TOPICS.join(" and ")} (or *)`);
    for (const topic of topics) {
      const keys = wanted.get(topic);
      if (key === "*" || keys === "*") wanted.set(topic, "*");
      else if (keys === undefined) wanted.set(topic, new Set([key]));
      else keys.add(key);
    }
  }
  return wanted;
}

/** The stream's parameters; a bad one is a 400 (`BadRequest`). */
export function parseStreamQuery(query: Query): StreamQuery {
  const region = param(query, "region");
  const topics = parseTopics(values(query, "topic"));
  const namespace = param(query, "namespace") || "default";
  let index = 0;
  const indexText = param(query, "index");
  if (indexText !== undefined) {
    if (!/^\d+$/.test(indexText) || BigInt(indexText) > 2n ** 64n - 1n) throw new BadRequest("Invalid index");
    index = Number(indexText);
  }
  const result: StreamQuery = { topics, namespace, index, filter: param(query, "filter") ?? "" };
  if (region !== undefined && region !== "") result.region = region;
  return result;
}
