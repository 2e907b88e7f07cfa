/**
 * Checks LevelDB's write-ahead logs (`NNNNNN.log` in a data directory) before the database opens.
 *
 * LevelDB replays its log when it opens; without `paranoid_checks` (which classic-level does not
 * expose) a record that fails its checksum is skipped with the rest of its 32 KiB block, the replayed
 * state is written into a table and the log is deleted: acknowledged writes vanish without a trace but
 * a line in the directory's `LOG`. This reads each log as LevelDB's `log::Reader` does (the format of
 * LevelDB's doc/log_format.md: 32 KiB blocks of records, each a header of a masked CRC-32C, a length
 * and a type, then the payload) and reports what that reader would drop. A record cut short at the
 * end of the file is not damage: the writer died while writing it (LevelDB reads it as the end of the
 * log, and the write it held was never acknowledged, since the server answers after its fsync).
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

const BLOCK_SIZE = 32768;
const HEADER_SIZE = 7;
const FULL = 1;
const FIRST = 2;
const MIDDLE = 3;
const LAST = 4;
/** A write batch's own header (sequence number and count): a shorter record is damage. */
const MIN_BATCH = 12;

/** CRC-32C (Castagnoli, reflected polynomial 0x82F63B78): LevelDB's util/crc32c. */
const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32C of `bytes`. */
export function crc32c(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC32C_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** LevelDB stores a record's checksum masked (util/crc32c.h `Mask`); this is `Unmask`. */
function unmask(masked: number): number {
  const rot = (masked - 0xa282ead8) >>> 0;
  return ((rot >>> 17) | (rot << 15)) >>> 0;
}

/** What LevelDB would drop from a log when it opens. */
export interface LogDamage {
  /** the log file's name, e.g. `000005.log` */
  file: string;
  /** byte offset of the first damaged record */
  offset: number;
  /** LevelDB's words for it (`checksum mismatch`, `bad record length`, …) */
  reason: string;
}

/** The first damage of one log's contents, or undefined when LevelDB would replay every record. */
export function checkLog(file: string, data: Uint8Array): LogDamage | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let inRecord = false;
  let recordStart = 0;
  let recordBytes = 0;
  for (let blockStart = 0; blockStart < data.length; blockStart += BLOCK_SIZE) {
    const blockEnd = Math.min(blockStart + BLOCK_SIZE, data.length);
    // LevelDB's `eof_`: the read of this block came back short, it is the file's last.
    const lastBlock = blockEnd - blockStart < BLOCK_SIZE;
    let p = blockStart;
    // Fewer than a header's bytes left: a block's zero trailer, or a header cut short at the end.
    while (blockEnd - p >= HEADER_SIZE) {
      const length = view.getUint16(p + 4, true);
      const type = data[p + 6]!;
      if (p + HEADER_SIZE + length > blockEnd) {
        if (lastBlock) return undefined; // the writer died in the middle of this record
        return { file, offset: p, reason: "bad record length" };
      }
      // Preallocated zeros (LevelDB's mmap writer): the rest of the block is skipped, not damage.
      if (type === 0 && length === 0) break;
      const expected = unmask(view.getUint32(p, true));
      if (crc32c(data.subarray(p + 6, p + HEADER_SIZE + length)) !== expected) return { file, offset: p, reason: "checksum mismatch" };
      switch (type) {
        case FULL:
        case FIRST:
          // An empty FIRST before it was a bug of old writers, which LevelDB forgives.
          if (inRecord && recordBytes > 0) return { file, offset: recordStart, reason: `partial record without end(${type === FULL ? 1 : 2})` };
          inRecord = type === FIRST;
          recordStart = p;
          recordBytes = length;
          if (type === FULL && length < MIN_BATCH) return { file, offset: p, reason: "log record too small" };
          break;
        case MIDDLE:
        case LAST:
          if (!inRecord) return { file, offset: p, reason: `missing start of fragmented record(${type === MIDDLE ? 1 : 2})` };
          recordBytes += length;
          if (type === LAST) {
            inRecord = false;
            if (recordBytes < MIN_BATCH) return { file, offset: recordStart, reason: "log record too small" };
          }
          break;
        default:
          return { file, offset: p, reason: `unknown record type ${type}` };
      }
      p += HEADER_SIZE + length;
    }
  }
  // A record begun but not finished at the end of the file: the writer died while writing it.
  return undefined;
}

/** The damage LevelDB would skip when it opens the database in `dir`, log by log (none: []). */
export async function checkLogs(dir: string): Promise<LogDamage[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  const damage: LogDamage[] = [];
  for (const name of names.filter((n) => /^\d+\.log$/.test(n)).sort()) {
    const found = checkLog(name, await readFile(join(dir, name)));
    if (found !== undefined) damage.push(found);
  }
  return damage;
}
