// The working state of a sign-in form: `run` disables the form, runs a flow step and, when the step
// names the next route, goes there (the form stays disabled while the page changes). A failure the
// page can explain (an AccountsError of a known kind) is kept for the page to show next to a field or
// as the form's alert, translated when rendered, so it follows a change of language; anything else
// goes to the generic failure dialog (docs/product.md#dialogs).
import { useRouter } from 'next/router';
import { useCallback, useRef, useState } from 'react';

import { leaveFor } from '@ente/shared/app/navigation.ts';
import { useDialog } from '@ente/shared/dialog/DialogProvider.tsx';

import { toAccountsError, type AccountsError } from '../services/errors.ts';

export interface Submission {
  busy: boolean;
  /** The failure of the last run, when the page can say what it was. */
  failure: AccountsError | undefined;
  /** Forgets the failure shown (e.g. when the user edits the field it was about). */
  clearFailure: () => void;
  /**
   * Runs `step`; when it returns a route (a string) or an absolute URL, goes there (with `replace`, in place of this page in the
   * history). Resolves to whether the page is leaving. Ignored while a run is in progress.
   */
  run: (step: () => Promise<unknown>, options?: { replace?: boolean }) => Promise<boolean>;
}

export function useSubmission(what: string): Submission {
  const router = useRouter();
  const { onGenericError } = useDialog();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<AccountsError>();
  // The state above is not updated yet when a second submit arrives in the same tick (a sixth digit
  // typed and Enter pressed at once); this is.
  const running = useRef(false);

  const run = useCallback(
    async (step: () => Promise<unknown>, { replace = false } = {}) => {
      if (running.current) return false;
      running.current = true;
      setBusy(true);
      setFailure(undefined);
      try {
        const next = await step();
        // Stays busy when the page is on its way out: to another route, or to another site (the
        // accounts app's passkey check).
        if (typeof next === 'string' && isAbsoluteURL(next)) {
          leaveFor(next);
          return true;
        }
        if (typeof next === 'string' && (await (replace ? router.replace(next) : router.push(next)))) return true;
      } catch (e) {
        const error = toAccountsError(e);
        if (error.kind === 'unknown') onGenericError(e, { message: what });
        else setFailure(error);
      }
      running.current = false;
      setBusy(false);
      return false;
    },
    [onGenericError, router, what],
  );

  return { busy, failure, clearFailure: useCallback(() => setFailure(undefined), []), run };
}

function isAbsoluteURL(next: string): boolean {
  return /^https?:\/\//i.test(next);
}
