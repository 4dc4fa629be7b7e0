import { isDeepStrictEqual } from 'node:util';
import { loadPageVerifier, type PagePolicy, pageVerdict, referenceVerdict, type Verdict } from './page-verifier.js';

/**
 * Runs a proof through the page's script and through verifyProofFile and records where they disagree: the verdict
 * and its reason, or on success everything the page shows. A case where the reference throws (it does on input it
 * did not foresee) only needs the page not to verify.
 */
export class VerdictComparison {
  private readonly page = loadPageVerifier();
  readonly mismatches: string[] = [];
  checked = 0;

  /** `sameReason: false` where the reference's words are an accident (JSON.stringify of a parsed number object). */
  async check(label: string, file: Uint8Array | string, policy: PagePolicy, { sameReason = true } = {}): Promise<Verdict> {
    const bytes = typeof file === 'string' ? Buffer.from(file, 'utf8') : file;
    const reference = referenceVerdict(bytes, policy);
    const page = pageVerdict(await this.page.verifyProof(new Uint8Array(bytes), policy));
    this.checked++;
    const { threw, ...expected } = reference;
    const agrees = threw || (!sameReason && !page.ok) ? page.ok === expected.ok : isDeepStrictEqual(page, expected);
    if (!agrees) this.mismatches.push(`${label}:\n  page      ${JSON.stringify(page)}\n  reference ${JSON.stringify(reference)}`);
    return page;
  }
}
