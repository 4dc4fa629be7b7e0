import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Client } from './api';
import type { Session } from './types';

export interface Console {
  session: Session;
  /** Calls for the account on view: the session's own, or the one an admin picked (client.account null: none yet). */
  api: Client;
}

export const ConsoleContext = createContext<Console | null>(null);

export function useConsole(): Console {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole outside the signed-in console');
  return value;
}
