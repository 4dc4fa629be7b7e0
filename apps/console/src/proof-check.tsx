import { useEffect, useState } from 'preact/hooks';
import { useConsole } from './context';
import { checkProof, type Verdict } from './proof';
import type { LogDetail } from './types';

const HEADLINE: Record<Verdict['kind'], string> = {
  checking: 'Checking the proof…',
  verified: 'Verified',
  refused: 'Not verified',
  'not-ready': 'Not yet covered by a signed checkpoint',
  unavailable: 'The proof could not be fetched',
};

/** The log's proof, verified in this page; while no checkpoint covers the log, checked again after Retry-After. */
export function ProofCheck({ log }: { log: LogDetail }) {
  const { api } = useConsole();
  const [turn, setTurn] = useState(0);
  const [verdict, setVerdict] = useState<Verdict>({ kind: 'checking' });
  const [file, setFile] = useState<string>();
  const seq = log.chain?.seq;

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let url: string | undefined;
    setVerdict({ kind: 'checking' });
    void checkProof(api, log).then(({ verdict: found, proof }) => {
      if (!live) return;
      setVerdict(found);
      // The proof as fetched, to save and check again offline (npm run audit:verify, or the /verify page).
      url = proof && URL.createObjectURL(new Blob([proof], { type: 'text/plain' }));
      setFile(url);
      if (found.kind === 'not-ready') timer = setTimeout(() => setTurn((t) => t + 1), found.retryAfter * 1000);
    });
    return () => {
      live = false;
      clearTimeout(timer);
      if (url) URL.revokeObjectURL(url);
    };
  }, [api, log.id, seq, turn]);

  return (
    <section class="proof" aria-labelledby="proof-heading">
      <h2 id="proof-heading">Proof of inclusion</h2>
      <p class={`verdict verdict-${verdict.kind}`} id="verdict" role="status" aria-live="polite" data-verdict={verdict.kind}>
        {HEADLINE[verdict.kind]}
      </p>
      {verdict.kind === 'verified' && (
        <p>
          Checked in this browser with WebCrypto: the checkpoint of {verdict.report.origin} (tree size {verdict.report.size}) is signed by {verdict.keyName}'s
          key, and its entry at seq {verdict.report.seq} is this log, as accepted.
          {verdict.report.unchecked.length > 0 && ` Also signed by ${verdict.report.unchecked.join(', ')}, whose keys this page does not hold (not checked).`}
        </p>
      )}
      {verdict.kind === 'refused' && <p class="reason">{verdict.reason}</p>}
      {verdict.kind === 'not-ready' && (
        <p>
          {verdict.message} Checking again in {verdict.retryAfter} s.{' '}
          <button type="button" onClick={() => setTurn((t) => t + 1)}>
            Check now
          </button>
        </p>
      )}
      {verdict.kind === 'unavailable' && <p class="reason">{verdict.message}</p>}
      {file && verdict.kind !== 'checking' && (
        <p>
          <a href={file} download={`${log.id}.tlog-proof`}>
            Save the proof file
          </a>{' '}
          to check it offline on the <a href="/verify">verifier page</a> or with <code>npm run audit:verify</code>.
        </p>
      )}
    </section>
  );
}
