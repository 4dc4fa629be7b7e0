import { useConsole } from './context';
import { when } from './format';
import { LogText } from './log-text';
import { Refusal } from './refusal';
import type { ChainHead, WitnessState } from './types';
import { useFetch } from './use-fetch';

const REFRESH_MS = 5000;

/** GET /v1/audit/head: whether the stored chain holds up, and what each witness last cosigned (every role reads it). */
export function ChainStatus() {
  const { api } = useConsole();
  const { data, error } = useFetch(
    () => api.json<ChainHead>('/v1/audit/head'),
    [api],
    () => REFRESH_MS,
  );
  return (
    <section aria-labelledby="chain-heading">
      <h2 id="chain-heading">Audit chain and witnesses</h2>
      {error && <Refusal error={error} what="The chain's head could not be read" />}
      {!data && !error && <p role="status">Loading…</p>}
      {data && (
        <>
          <Check head={data} />
          <Witnesses witnesses={data.witnesses} />
        </>
      )}
    </section>
  );
}

const VERDICT = { ok: 'The chain holds up', broken: 'The chain is broken', unchecked: 'The chain is not checked yet' };

function Check({ head: { seq, at, check } }: { head: ChainHead }) {
  const { broken } = check;
  // Before the server's first run, ok only means nothing was found broken: no verdict yet.
  const state = !check.ok ? 'broken' : check.checkedAt ? 'ok' : 'unchecked';
  return (
    <p id="chain-check" data-chain={state}>
      {/* Only the state is live: the check's time changes at every run, which a screen reader need not hear. */}
      <strong role="status" class={`chain-${state}`}>
        {VERDICT[state]}
      </strong>
      {broken ? (
        <>
          : the {broken.chain} chain at {broken.seq === null ? 'no single link' : `seq ${broken.seq}`}, <LogText text={broken.reason} />
          {broken.since && ` (found ${when(broken.since)})`}. Nothing is signed until it is repaired.
        </>
      ) : (
        <>
          {check.checkedAt
            ? `: verified up to seq ${check.verifiedSeq} of ${seq}, checked ${when(check.checkedAt)}.`
            : ": a worker checks each account's chains every AUDIT_CHECK_INTERVAL_MS (1 min by default)."}
        </>
      )}{' '}
      {seq === '0' ? 'No log yet.' : `The last log came ${when(at)}.`}
    </p>
  );
}

const OUTCOME = { cosigned: 'cosigned', refused: 'refused (it holds a tree this one does not extend: investigate)', unreachable: 'unreachable' };

function Witnesses({ witnesses }: { witnesses: WitnessState[] }) {
  if (witnesses.length === 0)
    return <p id="witnesses-none">No witnesses are configured (AUDIT_WITNESSES): only the gateway's own key vouches for its checkpoints.</p>;
  return (
    // Focusable, so that a keyboard can scroll the table sideways on a narrow screen.
    <div class="scroll" tabIndex={0} role="region" aria-label="Witnesses">
      <table class="witness-states">
        <caption>What each witness last cosigned for this account</caption>
        <thead>
          <tr>
            <th scope="col">Witness</th>
            <th scope="col">Cosigned tree size</th>
            <th scope="col">Cosigned at</th>
            <th scope="col">The latest checkpoint</th>
            <th scope="col">Last request</th>
          </tr>
        </thead>
        <tbody>
          {witnesses.map((w) => (
            <tr key={w.witness} data-witness={w.witness}>
              <td class="wrap">
                <LogText text={w.witness} />
              </td>
              <td>{w.cosignedSize === '0' ? 'none yet' : w.cosignedSize}</td>
              <td>{when(w.cosignedAt)}</td>
              <td>{w.cosignedLatest ? 'cosigned' : 'not cosigned yet'}</td>
              <td class="wrap">
                {w.outcome === null ? 'none yet' : `${OUTCOME[w.outcome]}, ${when(w.attemptedAt)}`}
                {w.error && (
                  <>
                    : <LogText text={w.error} />
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
