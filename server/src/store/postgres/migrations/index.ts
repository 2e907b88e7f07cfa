/** The schema's versions, in order: version N is MIGRATIONS[N - 1]. Never edit a released one; add the next. */
import * as initial from "./0001-initial.js";
import * as changeLog from "./0002-change-log.js";
import * as indexes from "./0003-indexes.js";
import * as recordLists from "./0004-record-lists.js";

export interface Migration {
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [initial, changeLog, indexes, recordLists];
