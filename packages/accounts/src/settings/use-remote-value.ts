// A value the settings load from the server when they show (the account details, the sessions), with
// the translated problem when that fails and a retry. An answer that arrives after the view closed
// changes nothing; an unexpected failure is also logged as "Could not load <what>".
import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';

import { log } from '@ente/shared/log.ts';

import { errorMessageKey, isAccountsError, type AccountsErrorMessageKey } from '../services/errors.ts';

export interface RemoteValue<T> {
  value: T | undefined;
  setValue: Dispatch<SetStateAction<T | undefined>>;
  problem: AccountsErrorMessageKey | undefined;
  setProblem: Dispatch<SetStateAction<AccountsErrorMessageKey | undefined>>;
  /** Clears the problem and loads again. */
  retry: () => void;
}

/** Loads with `load` whenever `enabled` turns true and at each retry. `load` must be a stable function. */
export function useRemoteValue<T>(load: () => Promise<T>, what: string, enabled = true): RemoteValue<T> {
  const [value, setValue] = useState<T>();
  const [problem, setProblem] = useState<AccountsErrorMessageKey>();
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!enabled) return;
    let current = true;
    load().then(
      (loaded) => {
        if (current) setValue(loaded);
      },
      (e: unknown) => {
        if (!current) return;
        if (isAccountsError(e, 'unknown')) log.error(`Could not load ${what}`, e);
        setProblem(errorMessageKey(e));
      },
    );
    return () => {
      current = false;
    };
  }, [load, what, enabled, attempt]);

  const retry = () => {
    setProblem(undefined);
    setAttempt((count) => count + 1);
  };
  return { value, setValue, problem, setProblem, retry };
}
