import type { AiLogUploadRecord } from '../state/ai-log-upload-record.js';

/** One body recorded more than once for one account. */
export interface DuplicatedBody {
  uid: string;
  /** How many times it was recorded (2 or more). */
  count: number;
  firstSeq: number;
  seqs: number[];
}

/** What `GET /__sim/uploads/duplicates` answers. */
export interface UploadDuplicates {
  /** Records beyond the first of each body: the uploads that would not exist without resending. */
  duplicates: number;
  byUid: Record<string, number>;
  bodies: DuplicatedBody[];
}

/** Same account and identical raw body means the same log uploaded again, whatever the path (v2 or v3) or signature. */
export function findUploadDuplicates(uploads: readonly AiLogUploadRecord[]): UploadDuplicates {
  const seqsByKey = new Map<string, { uid: string; seqs: number[] }>();
  for (const upload of [...uploads].sort((a, b) => a.seq - b.seq)) {
    const key = JSON.stringify([upload.uid, upload.rawBody]);
    const entry = seqsByKey.get(key) ?? { uid: upload.uid, seqs: [] };
    entry.seqs.push(upload.seq);
    seqsByKey.set(key, entry);
  }
  const bodies = [...seqsByKey.values()]
    .filter((entry) => entry.seqs.length > 1)
    .map(({ uid, seqs }) => ({ uid, count: seqs.length, firstSeq: seqs[0], seqs }))
    .sort((a, b) => a.firstSeq - b.firstSeq);
  const byUid: Record<string, number> = {};
  for (const body of bodies) byUid[body.uid] = (byUid[body.uid] ?? 0) + body.count - 1;
  return { duplicates: Object.values(byUid).reduce((a, b) => a + b, 0), byUid, bodies };
}
