import { useState } from 'preact/hooks';
import { isVerifierKey, writePinnedKey } from './pinned-key';
import { keyLabel } from './proof';

/**
 * The judge's own copy of the gateway's verifier key, got out of band (the key the team published before the
 * competition): pinned, the proof is checked against it, and a gateway serving any other key is not verified.
 */
export function PinKey({ account, pinned, onChange }: { account: string; pinned?: string; onChange(key: string | undefined): void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  // Open at first when a key is pinned; after that the judge opens and closes it (unpinning does not fold it away).
  const [openAtFirst] = useState(pinned !== undefined);

  function save(key: string | undefined) {
    try {
      writePinnedKey(account, key);
    } catch (failure) {
      setError(`this browser keeps nothing for this page (${failure instanceof Error ? failure.message : String(failure)})`);
      return;
    }
    setError(undefined);
    setText('');
    onChange(key);
  }

  function submit(event: Event) {
    event.preventDefault();
    const key = text.trim();
    if (!isVerifierKey(key)) setError('not a verifier key: expected <name>+<8 hex digits>+<base64 key>, one line');
    else save(key);
  }

  return (
    <details class="pin" open={openAtFirst}>
      <summary>{pinned ? `Pinned verifier key for account ${account}: ${keyLabel(pinned)}` : 'Pin the verifier key you got out of band'}</summary>
      <form onSubmit={submit}>
        <label for="pinned-key">Gateway verifier key (kept in this browser, for account {account})</label>
        <input
          id="pinned-key"
          autocomplete="off"
          spellcheck={false}
          value={text}
          placeholder={pinned ?? 'origin+1a2b3c4d+AQ…'}
          onInput={(e) => setText(e.currentTarget.value)}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby="pinned-key-error"
        />
        <p class="actions">
          <button type="submit">Pin</button>{' '}
          {pinned && (
            <button type="button" onClick={() => save(undefined)}>
              Unpin
            </button>
          )}
        </p>
        <p id="pinned-key-error" class="error" role="alert">
          {error}
        </p>
      </form>
    </details>
  );
}
