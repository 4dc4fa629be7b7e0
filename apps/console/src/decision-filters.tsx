import { useState } from 'preact/hooks';
import { fromUtcInput, utcInput } from './format';
import { navigate } from './route';
import { STATUSES } from './types';

/** The filters of GET /v1/ai-logs that the list takes from the hash, so that a filtered list can be linked. */
export const FILTERS = ['status', 'model', 'stage', 'orderId', 'q', 'from', 'to'] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

const TEXT_FIELDS = [
  ['model', 'Model', 'exactly, e.g. my-model-v1'],
  ['stage', 'Stage', 'exactly, e.g. decision'],
  ['orderId', 'Order ID', 'digits'],
  ['q', 'Explanation contains', 'any case'],
] as const;

/** Filters open on a wide screen, or when some are set; at 390 px closed ones leave the list in view. */
const WIDE = '(min-width: 48rem)';

export function DecisionFilters({ query }: { query: URLSearchParams }) {
  const [values, setValues] = useState<Filters>(() => Object.fromEntries(FILTERS.map((f) => [f, query.get(f) ?? undefined])));
  const active = FILTERS.filter((f) => query.get(f)).length;
  const [open, setOpen] = useState(() => active > 0 || window.matchMedia(WIDE).matches);
  const statuses = new Set((values.status ?? '').split(',').filter(Boolean));
  const set = (name: keyof Filters, value: string | undefined) => setValues((v) => ({ ...v, [name]: value || undefined }));
  const toggle = (status: string, on: boolean) => {
    const next = STATUSES.filter((s) => (s === status ? on : statuses.has(s)));
    set('status', next.join(','));
  };
  const submit = (event: Event) => {
    event.preventDefault();
    navigate('/logs', values);
  };

  return (
    <details class="filter-box" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Filters{active > 0 ? ` (${active} set)` : ''}</summary>
      <form class="filters" onSubmit={submit} aria-label="Filter the decisions">
        <fieldset class="statuses">
          <legend>Status</legend>
          {STATUSES.map((status) => (
            <label key={status}>
              <input type="checkbox" name="status" value={status} checked={statuses.has(status)} onChange={(e) => toggle(status, e.currentTarget.checked)} />
              {status}
            </label>
          ))}
        </fieldset>
        {TEXT_FIELDS.map(([name, label, hint]) => (
          <label key={name}>
            {label}
            <input
              name={name}
              value={values[name] ?? ''}
              placeholder={hint}
              inputMode={name === 'orderId' ? 'numeric' : undefined}
              onInput={(e) => set(name, e.currentTarget.value.trim())}
            />
          </label>
        ))}
        <label>
          From (UTC)
          <input name="from" type="datetime-local" step={1} value={utcInput(values.from)} onInput={(e) => set('from', fromUtcInput(e.currentTarget.value))} />
        </label>
        <label>
          To (UTC), exclusive
          <input name="to" type="datetime-local" step={1} value={utcInput(values.to)} onInput={(e) => set('to', fromUtcInput(e.currentTarget.value))} />
        </label>
        <div class="actions">
          <button type="submit">Apply filters</button>
          <a href="#/logs">Clear</a>
        </div>
      </form>
    </details>
  );
}
