import { LogText } from './log-text';
import type { AccountStatus, WindowUsage } from './types';

const WINDOWS = [
  ['uid', "This account's budget (its UID)", 'budget-uid'],
  ['ip', "The server's IP budget (shared by every account)", 'budget-ip'],
] as const;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The exchange's weight budgets as the gateway spends them: used of the limit in the span ending now, and any pause. */
export function WeightBudget({ status }: { status: AccountStatus }) {
  const budget = status.weightBudget;
  return (
    <>
      <h3>Exchange weight budget</h3>
      {!budget ? (
        <p>
          Not known: <LogText text={status.weightBudgetError ?? 'the gateway has no exchange client for this account'} />
        </p>
      ) : (
        <dl class="budget">
          {WINDOWS.map(([name, label, id]) => (
            <Window key={name} usage={budget[name]} label={label} id={id} />
          ))}
        </dl>
      )}
    </>
  );
}

function Window({ usage, label, id }: { usage: WindowUsage; label: string; id: string }) {
  const { used, limit, msBeforeReset, pausedMs } = usage;
  return (
    <div>
      <dt id={`${id}-label`}>{label}</dt>
      <dd>
        <meter id={id} aria-labelledby={`${id}-label`} min={0} max={limit} high={limit * 0.8} optimum={0} value={Math.min(used, limit)} />{' '}
        <span class="budget-text" data-budget={id}>
          {used} of {limit} used
          {used > 0 && msBeforeReset > 0 ? `, some frees up in ${seconds(msBeforeReset)}` : ''}
          {pausedMs > 0 ? `; paused for ${seconds(pausedMs)} after the exchange answered 429` : ''}
        </span>
      </dd>
    </div>
  );
}
