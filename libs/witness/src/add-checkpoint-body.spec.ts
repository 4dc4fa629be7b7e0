import { MAX_BODY_BYTES, parseAddCheckpointBody } from './add-checkpoint-body.js';
import { WitnessRefusal } from './witness-refusal.js';

const HASH = Buffer.alloc(32, 7).toString('base64');
const NOTE = 'example.org/log\n1\nAAAA\n\n— example.org/log AAAA\n';

function refusal(body: Buffer | string): { status: number; message: string } {
  try {
    parseAddCheckpointBody(body);
  } catch (error) {
    if (error instanceof WitnessRefusal) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('parsed');
}

describe('parseAddCheckpointBody', () => {
  it('reads the old size, the proof lines and the note as sent', () => {
    const body = parseAddCheckpointBody(`old 20852014\n${HASH}\n${HASH}\n\n${NOTE}`);
    expect(body.oldSize).toBe(20852014n);
    expect(body.proof.map((h) => h.toString('base64'))).toEqual([HASH, HASH]);
    expect(body.note).toBe(NOTE);
  });

  it('takes old 0 with no proof, from bytes', () => {
    expect(parseAddCheckpointBody(Buffer.from(`old 0\n\n${NOTE}`))).toEqual({ oldSize: 0n, proof: [], note: NOTE });
  });

  it('takes 63 proof lines and refuses 64', () => {
    expect(parseAddCheckpointBody(`old 1\n${`${HASH}\n`.repeat(63)}\n${NOTE}`).proof).toHaveLength(63);
    expect(refusal(`old 1\n${`${HASH}\n`.repeat(64)}\n${NOTE}`)).toEqual({ status: 400, message: 'more than 63 consistency proof lines' });
  });

  it.each([
    ['no newline at all', 'old 5', /must start with an old size line/],
    ['no old line', `${HASH}\n\n${NOTE}`, /line 1 must be the old size line/],
    ['"old" with two spaces', `old  5\n\n${NOTE}`, /line 1: the old size must be an ASCII decimal/],
    ['a leading zero', `old 05\n\n${NOTE}`, /without leading zeros/],
    ['a sign', `old +5\n\n${NOTE}`, /without leading zeros/],
    ['2^63', `old 9223372036854775808\n\n${NOTE}`, /at most 2\^63-1/],
    ['2^64', `old 18446744073709551616\n\n${NOTE}`, /at most 2\^63-1/],
    ['a megabyte of digits', `old ${'9'.repeat(60_000)}\n\n${NOTE}`, /at most 2\^63-1/],
    ['a CR', `old 5\r\n\r\n${NOTE}`, /line 1: the old size/],
    ['a hash of 31 bytes', `old 5\n${Buffer.alloc(31).toString('base64')}\n\n${NOTE}`, /line 2: a consistency proof line must be one 32-byte hash/],
    ['base64url', `old 5\n${'_'.repeat(43)}=\n\n${NOTE}`, /line 2: a consistency proof line/],
    ['unpadded base64', `old 5\n${HASH.slice(0, -1)}\n\n${NOTE}`, /line 2: a consistency proof line/],
    ['no empty line', `old 5\n${HASH}\n`, /no empty line/],
    ['nothing after the empty line', `old 5\n\n`, /no checkpoint after the empty line/],
  ])('refuses %s with a 400 that says what is wrong', (_, body, message) => {
    const { status, message: got } = refusal(body);
    expect(status).toBe(400);
    expect(got).toMatch(message);
  });

  it('refuses bytes that are not UTF-8, and a string with a lone surrogate', () => {
    expect(refusal(Buffer.concat([Buffer.from(`old 0\n\n`), Buffer.from([0xc3, 0x28]), Buffer.from(NOTE)]))).toEqual({
      status: 400,
      message: 'request body is not valid UTF-8',
    });
    expect(refusal(`old 0\n\n\ud800${NOTE}`).status).toBe(400);
  });

  it('refuses a body over 64 KiB with 413 before reading it', () => {
    const body = Buffer.alloc(MAX_BODY_BYTES + 1, 0x61);
    expect(refusal(body)).toEqual({ status: 413, message: `request body is ${MAX_BODY_BYTES + 1} bytes; the limit is ${MAX_BODY_BYTES}` });
  });
});
