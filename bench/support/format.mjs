// Number formats of the report.

export const mb = (value) => (Number.isFinite(value) ? `${Math.round(value)} MB` : 'n/a');
export const ms = (value) => (Number.isFinite(value) ? `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms` : 'n/a');
export const int = (value) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en') : 'n/a');
