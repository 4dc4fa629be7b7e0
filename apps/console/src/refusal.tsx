import type { ApiError } from './api';

/** A refused call as the reader needs it: the gateway's message and every field a 400 names. */
export function Refusal({ error, what }: { error: ApiError; what?: string }) {
  return (
    <div class="refusal" role="alert">
      <p>
        {what ? `${what}: ` : ''}
        {error.message}
      </p>
      {error.errors.length > 0 && (
        <ul>
          {error.errors.map((e) => (
            <li key={e.path}>
              <code>{e.path}</code>: {e.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
