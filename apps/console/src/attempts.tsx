import { when } from './format';
import { LogText } from './log-text';
import type { Attempt } from './types';

/** Every upload attempt, oldest first, with what the exchange (or the simulator) answered. */
export function Attempts({ attempts }: { attempts: Attempt[] }) {
  if (attempts.length === 0) return <p>No upload attempt yet.</p>;
  return (
    <div class="scroll">
      <table class="attempts">
        <caption class="sr-only">Upload attempts, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Sent</th>
            <th scope="col">Latency</th>
            <th scope="col">Outcome</th>
            <th scope="col">HTTP</th>
            <th scope="col">Exchange code</th>
            <th scope="col">Exchange message</th>
            <th scope="col">Answered by</th>
          </tr>
        </thead>
        <tbody>
          {attempts.map((a, i) => (
            <tr key={a.at + i}>
              <td>{i + 1}</td>
              <td>
                <time dateTime={a.at}>{when(a.at)}</time>
              </td>
              <td>{a.latencyMs} ms</td>
              <td>
                <span class={`outcome outcome-${a.outcome}`}>{a.outcome}</span>
              </td>
              <td>{a.httpStatus ?? '—'}</td>
              <td>{a.exchangeCode ?? '—'}</td>
              <td class="wrap">{a.exchangeMessage === null ? '—' : <LogText text={a.exchangeMessage} />}</td>
              <td>{a.target}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
