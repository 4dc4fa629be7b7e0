import type { AiLogUploadRecord } from '../state/ai-log-upload-record.js';
import { findUploadDuplicates } from './upload-duplicates.js';

const record = (seq: number, uid: string, rawBody: string) => ({ seq, uid, rawBody }) as AiLogUploadRecord;

describe('findUploadDuplicates', () => {
  it('counts bodies recorded more than once per account, not across accounts', () => {
    const uploads = [record(4, 'a', 'x'), record(1, 'a', 'x'), record(2, 'b', 'x'), record(3, 'a', 'y')];
    uploads.push(record(5, 'a', 'x'));
    expect(findUploadDuplicates(uploads)).toEqual({
      duplicates: 2,
      byUid: { a: 2 },
      bodies: [{ uid: 'a', count: 3, firstSeq: 1, seqs: [1, 4, 5] }],
    });
    expect(findUploadDuplicates([])).toEqual({ duplicates: 0, byUid: {}, bodies: [] });
  });
});
