import { useEffect, useMemo, useState } from 'preact/hooks';
import { useConsole } from './context';
import { plural } from './format';
import { LogText } from './log-text';
import { PinKey } from './pin-key';
import { readPinnedKey } from './pinned-key';
import { type Checked, checkProof, type KeySource, type WitnessCheck } from './proof';
import { chainHash, differences, type Shown } from './proof-fields';
import type { Role } from './types';

/**
 * Who can have a checkpoint signed sooner than the worker: POST /v1/audit/checkpoints takes a key with exchange:read as
 * a bearer (it is no console action), which a judge's key is not.
 */
const SIGN_SOONER: Record<Role, string> = {
  team: 'The worker signs one when the tree has grown; to sign one now, call POST /v1/audit/checkpoints with your agent key as a bearer (scope exchange:read).',
  judge: 'The worker signs one when the tree has grown. Your key only reads and cannot sign one: if you need it sooner, ask the team to.',
  admin: "The worker signs one when the tree has grown; the team's agent key (scope exchange:read) can sign one now with POST /v1/audit/checkpoints.",
};

/** The verdict the page states: the signatures' verdict, refused when a field shown differs from the proof's entry. */
type Verdict = Checked;

/** The chain hash the entry gives after a previous hash, worked out (async, WebCrypto) once per check and previous hash. */
interface Hashed {
  of: Checked;
  prevHash: string;
  hash: string;
}

function verdictOf(checked: Checked, hashed: Hashed | undefined, shown: Shown): Verdict {
  if (checked.kind !== 'verified') return checked;
  if (hashed?.of !== checked || hashed.prevHash !== shown.chain.prevHash) return { kind: 'checking' };
  const found = differences(checked.report.entry, shown, hashed.hash);
  if (found.length === 0) return checked;
  const list = found.map((d) => `${d.field} (the page shows ${d.shown}, the entry holds ${d.entry})`).join('; ');
  return { kind: 'refused', reason: `this page shows the decision otherwise than the proof's entry: ${list}`, key: checked.key, witnesses: checked.witnesses };
}

function headline(verdict: Verdict): string {
  if (verdict.kind === 'verified') {
    const ok = verdict.witnesses.filter((w) => w.result === 'ok').length;
    return ok === 0 ? "Verified by the gateway's key" : `Verified by the gateway and ${plural(ok, 'witness', 'witnesses')}`;
  }
  const words = {
    checking: 'Checking the proof…',
    refused: 'Not verified',
    'not-ready': 'Not yet covered by a signed checkpoint',
    unavailable: 'The proof could not be fetched',
  };
  return words[verdict.kind];
}

/**
 * The log's proof, verified in this page, and every field the page shows compared with the entry it commits to; while
 * no checkpoint covers the log, checked again after Retry-After.
 */
export function ProofCheck({ shown }: { shown: Shown }) {
  const { api, session } = useConsole();
  const account = api.account ?? '';
  const [pinned, setPinned] = useState(() => readPinnedKey(api.account));
  const [turn, setTurn] = useState(0);
  const [checked, setChecked] = useState<Checked>({ kind: 'checking' });
  const [hashed, setHashed] = useState<Hashed>();
  const [file, setFile] = useState<string>();
  const { id } = shown;
  const seq = shown.chain.seq;

  useEffect(() => setPinned(readPinnedKey(api.account)), [api.account]);

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let url: string | undefined;
    setChecked({ kind: 'checking' });
    void checkProof(api, id, pinned).then(({ checked: found, proof }) => {
      if (!live) return;
      setChecked(found);
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
  }, [api, id, seq, turn, pinned]);

  const { prevHash } = shown.chain;
  useEffect(() => {
    if (checked.kind !== 'verified') return;
    let live = true;
    void chainHash(prevHash, checked.report.entry).then((hash) => live && setHashed({ of: checked, prevHash, hash }));
    return () => {
      live = false;
    };
  }, [checked, prevHash]);

  // The fields are compared at each render: each reload of the decision (until its upload is over) is compared again.
  const verdict = useMemo(() => verdictOf(checked, hashed, shown), [checked, hashed, shown]);
  const key = verdict.kind === 'verified' || verdict.kind === 'refused' ? verdict.key : undefined;
  const witnesses = verdict.kind === 'verified' || verdict.kind === 'refused' ? verdict.witnesses : undefined;
  return (
    <section class="proof" aria-labelledby="proof-heading">
      <h2 id="proof-heading">Proof of inclusion</h2>
      <p class={`verdict verdict-${verdict.kind}`} id="verdict" role="status" aria-live="polite" data-verdict={verdict.kind}>
        {headline(verdict)}
      </p>
      <p class="hint trust">
        This page is served by the gateway it checks, so a gateway that lies could serve a page that lies too: the independent check is the proof file below run
        through <code>npm run audit:verify</code>, or the <a href="/verify">/verify page</a> saved to your own disk, with keys you got elsewhere.
      </p>
      {verdict.kind === 'verified' && (
        <p>
          Checked in this browser with WebCrypto: the checkpoint of {verdict.report.origin} (tree size {verdict.report.size}) is signed by the key named below,
          its entry at seq {verdict.report.seq} is this log as accepted, and every field this page shows of it (id, model, stage, order, time received,
          explanation, input, output, chain link) is what the entry holds. Not covered by this proof: the status, the uploads and the order's evidence (the
          receipt chain and the exchange hold those), and the previous hash.
        </p>
      )}
      {verdict.kind === 'refused' && (
        <p class="reason">
          <LogText text={verdict.reason} />
        </p>
      )}
      {key && <KeyLine keySource={key} />}
      {witnesses && <Witnesses witnesses={witnesses} />}
      {verdict.kind === 'verified' && verdict.unchecked.length > 0 && (
        <p>Also signed by {verdict.unchecked.join(', ')}, whose keys this gateway does not list (not checked).</p>
      )}
      {verdict.kind === 'not-ready' && (
        <p>
          {SIGN_SOONER[session.role]} Checking again in {verdict.retryAfter} s.{' '}
          <button type="button" onClick={() => setTurn((t) => t + 1)}>
            Check now
          </button>
        </p>
      )}
      {verdict.kind === 'unavailable' && <p class="reason">{verdict.message}</p>}
      {file && verdict.kind !== 'checking' && (
        <p>
          <a href={file} download={`${id}.tlog-proof`}>
            Save the proof file
          </a>{' '}
          to check it offline on the <a href="/verify">verifier page</a> or with <code>npm run audit:verify</code>.
        </p>
      )}
      {account && <PinKey account={account} pinned={pinned} onChange={setPinned} />}
    </section>
  );
}

function KeyLine({ keySource }: { keySource: KeySource }) {
  return (
    <p id="key-source" data-pinned={String(keySource.pinned)}>
      {keySource.pinned
        ? `Checked against the key you pinned, ${keySource.label}.`
        : `Checked only against the key this gateway served, ${keySource.label}: pin the key you got out of band to check against it.`}
    </p>
  );
}

const RESULT = { ok: 'cosignature checked', missing: 'no cosignature on this checkpoint', bad: 'cosignature does not verify' };

/** Each witness the gateway lists: its cosignature checked with its key, missing, or bad. */
function Witnesses({ witnesses }: { witnesses: WitnessCheck[] }) {
  if (witnesses.length === 0) return <p id="witnesses">The gateway lists no witnesses: only its own key vouches for this checkpoint.</p>;
  return (
    <>
      <p id="witnesses">Witnesses this gateway lists (their keys come from it too: compare them with the organiser's list):</p>
      <ul class="witnesses">
        {witnesses.map((w) => (
          <li key={w.witness} data-witness={w.witness} data-result={w.result}>
            <code>{w.witness}</code>: {RESULT[w.result]}
            {w.result === 'ok' && ` (cosigned at ${w.at})`}
            {w.result === 'bad' && ` (${w.reason})`}
          </li>
        ))}
      </ul>
    </>
  );
}
