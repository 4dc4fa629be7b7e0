import { useEffect, useRef, useState } from 'preact/hooks';
import { markHidden } from './log-text';

/** A press this soon after arming is the same gesture (a double-click, a repeated key): it does not confirm. */
const ARM_MS = 400;
/** An armed confirm left alone this long disarms. */
const DISARM_MS = 5000;

/**
 * "Revoke", then "Confirm: revoke <label>" for a second, separate press: no dialog, and the keyboard reaches both. The
 * confirm takes presses only after ARM_MS, and disarms after DISARM_MS, on Escape, or when the focus leaves it.
 */
export function RevokeButton({ label, onRevoke }: { label: string; onRevoke(): Promise<void> }) {
  const [armed, setArmed] = useState(false);
  const [ready, setReady] = useState(false);
  const busy = useRef(false);
  const [shownBusy, setShownBusy] = useState(false);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const disarm = () => {
    timers.current.forEach(clearTimeout);
    setArmed(false);
    setReady(false);
  };
  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  const press = async (event: MouseEvent) => {
    if (busy.current) return;
    if (!armed) {
      setArmed(true);
      timers.current = [setTimeout(() => setReady(true), ARM_MS), setTimeout(disarm, DISARM_MS)];
      return;
    }
    // The second click of a double-click (detail 2) never confirms, however slowly it came.
    if (!ready || event.detail > 1) return;
    busy.current = true;
    setShownBusy(true);
    try {
      await onRevoke();
    } finally {
      busy.current = false;
      setShownBusy(false);
      disarm();
    }
  };
  return (
    <button
      type="button"
      class="revoke"
      aria-disabled={(armed && !ready) || shownBusy ? 'true' : undefined}
      onClick={(e) => void press(e)}
      onBlur={() => !busy.current && disarm()}
      onKeyDown={(e) => e.key === 'Escape' && !busy.current && disarm()}
    >
      {armed ? `Confirm: revoke ${markHidden(label)}` : 'Revoke'}
    </button>
  );
}
