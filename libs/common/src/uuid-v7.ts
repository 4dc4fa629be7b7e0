import { randomFillSync } from 'node:crypto';

// Random bytes are drawn 4 KiB at a time: one getrandom call per 256 ids instead of one per id (it showed in the
// ingest profile).
const pool = Buffer.alloc(4096);
let offset = pool.length;

/** A UUIDv7 (RFC 9562): time-ordered, so new rows land at the end of the primary-key index. */
export function uuidv7(now = Date.now()): string {
  if (offset + 16 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + 16));
  offset += 16;
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | (bytes[6] & 0x0f);
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
