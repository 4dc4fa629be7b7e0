import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';

/**
 * A button whose press sends a request: while it is out, the button is disabled and further presses do nothing.
 * aria-disabled rather than disabled, so that the focus stays on it for the keyboard (a disabled button drops it).
 */
export function ActionButton({ onPress, children, class: className }: { onPress(): Promise<void>; children: ComponentChildren; class?: string }) {
  const busy = useRef(false);
  const [shownBusy, setShownBusy] = useState(false);
  const press = async () => {
    // A ref, not the state: two presses can come before the page renders again.
    if (busy.current) return;
    busy.current = true;
    setShownBusy(true);
    try {
      await onPress();
    } finally {
      busy.current = false;
      setShownBusy(false);
    }
  };
  return (
    <button type="button" class={className} aria-disabled={shownBusy ? 'true' : undefined} onClick={() => void press()}>
      {children}
    </button>
  );
}
