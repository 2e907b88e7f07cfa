/**
 * A filter's answers over an index's table, computed a block of rows at a time as a scan reaches them
 * (`FilterTable.answers`: part by part over the columns, far faster than row by row), so that a scan
 * passes over the rows the filter rejects a block at a time.
 */
import type { Filter, FilterTable } from "filter-expr";

/** `FilterTable.answers`' bytes. */
const REJECTED = 0;
const TRUE = 1;
const ERROR = 2;

/** Rows whose answers are computed together. */
const BLOCK = 4096;

/** The rows a scan may pass over: those the filter answers false (an error is left for the page's checks to raise in order). */
export interface Rejections {
  rejects(row: number): boolean;
  /**
   * The first row from `row` towards `end` (excluded; `step` is 1 or -1) that is not rejected, looking
   * no further than `row`'s block: that row, `end`, or where the next block starts (not looked at yet).
   */
  next(row: number, end: number, step: 1 | -1): number;
}

export class BlockAnswers<T> implements Rejections {
  private start = 0;
  private answers: Uint8Array = new Uint8Array(0);

  constructor(
    private readonly table: FilterTable<T>,
    private readonly filter: Filter<T>,
  ) {}

  /** Row `row`'s place in the block of answers that holds it (computed now if need be). */
  private at(row: number): number {
    const at = row - this.start;
    if (at >= 0 && at < this.answers.length) return at;
    this.start = row - (row % BLOCK);
    this.answers = this.table.answers(this.filter, this.start, Math.min(this.start + BLOCK, this.table.length));
    return row - this.start;
  }

  rejects(row: number): boolean {
    return this.answers[this.at(row)] === REJECTED;
  }

  next(row: number, end: number, step: 1 | -1): number {
    const at = this.at(row);
    const answers = this.answers;
    // The nearest match or error in the block (native searches), else the next block.
    if (step === 1) {
      const match = answers.indexOf(TRUE, at);
      const error = answers.indexOf(ERROR, at);
      const found = match < 0 ? (error < 0 ? answers.length : error) : error < 0 ? match : Math.min(match, error);
      return Math.min(this.start + found, end);
    }
    const found = Math.max(answers.lastIndexOf(TRUE, at), answers.lastIndexOf(ERROR, at));
    return Math.max(this.start + found, end);
  }
}
