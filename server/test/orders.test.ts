/**
 * The lists' order is Go's: bytewise over UTF-8 (code point order), which JavaScript's own string order
 * (UTF-16 units) is not once a key holds a character above U+FFFF.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jobsEndpoint } from "../src/lists/endpoints.js";
import { compareStrings, sortedBy } from "../src/lists/orders.js";
import type { JobListEntry } from "../src/lists/records.js";
import { runs } from "../../test/support/runs.js";

const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));

/** Well-formed text (no lone surrogate, which UTF-8 cannot hold), from a few characters that order differently in UTF-16. */
const key = fc.oneof(
  fc.string({ unit: fc.constantFrom("a", "b", "~", "é", "\uff5e", "\ue000", "😀", "𝔸", "日"), maxLength: 4 }),
  fc.string({ unit: "binary", maxLength: 4 }).filter((s) => !/\p{Cs}/u.test(s)),
);

describe("the lists' order", () => {
  it("compareStrings is bytewise UTF-8 order", () => {
    fc.assert(
      fc.property(key, key, (a, b) => {
        expect(Math.sign(compareStrings(a, b))).toBe(Math.sign(byBytes(a, b)));
      }),
    );
  });

  it("sortedBy sorts by namespace, then ID, bytewise, with or without characters above U+FFFF", () => {
    fc.assert(
      fc.property(fc.array(fc.record({ Namespace: key, ID: key }), { maxLength: 30 }), (jobs) => {
        const sorted = sortedBy(jobsEndpoint.order, jobs, (j) => j as JobListEntry).map((p) => p.item);
        const expected = [...jobs].sort((a, b) => byBytes(a.Namespace, b.Namespace) || byBytes(a.ID, b.ID));
        expect(sorted.map((j) => [j.Namespace, j.ID])).toEqual(expected.map((j) => [j.Namespace, j.ID]));
      }),
      { numRuns: runs(500) },
    );
  });
});
