// The frame of every sign-in form: the page's heading and sentence, the fields, a form-level message
// (role=alert) for problems that belong to no single field, the primary button and the secondary links
// below it. Enter in any field submits; the button shows a spinner and is disabled while the page
// works, and keeps its size, so nothing moves.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ParseKeys } from 'i18next';
import type { MouseEventHandler, ReactNode, SubmitEvent } from 'react';

import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';

import { AccountsPage } from './AccountsPage.tsx';

export interface AccountsFormProps {
  /** Translation key (namespace accounts) of the h1. */
  titleKey: ParseKeys<'accounts'>;
  /** The sentence below the heading, translated. */
  intro?: ReactNode;
  /** The fields (and anything else that goes above the button). */
  children: ReactNode;
  /** The label of the primary button, translated. */
  submitLabel: string;
  /** Runs on submit (Enter in a field, or the button); the default submission is prevented. */
  onSubmit: () => void;
  /** The page is working: the button shows a spinner and is disabled. */
  busy: boolean;
  /** The button is disabled for another reason (e.g. a box not ticked yet). */
  submitDisabled?: boolean;
  /** A problem with the form as a whole, translated. */
  error?: string;
  /** Secondary links and text below the button. */
  links?: ReactNode;
  /** Clicks anywhere on the page (the developer settings of /login). */
  onClick?: MouseEventHandler<HTMLElement>;
}

export function AccountsForm({
  titleKey,
  intro,
  children,
  submitLabel,
  onSubmit,
  busy,
  submitDisabled,
  error,
  links,
  onClick,
}: AccountsFormProps) {
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!busy) onSubmit();
  };
  return (
    <AccountsPage titleKey={titleKey} intro={intro} onClick={onClick}>
      <form noValidate onSubmit={submit} aria-busy={busy || undefined}>
        {children}
        <FormAlert message={error} />
        <LoadingButton
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          loading={busy}
          disabled={submitDisabled}
          sx={{ mt: 1 }}
        >
          {submitLabel}
        </LoadingButton>
      </form>
      {links !== undefined && (
        <Box sx={{ mt: 3, display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 1.5 }}>{links}</Box>
      )}
    </AccountsPage>
  );
}

/**
 * A problem with the form as a whole. The alert element is always in the page (an alert region that
 * exists before its text arrives is announced more reliably), empty while there is nothing to say.
 */
export function FormAlert({ message }: { message?: string }) {
  return (
    <Box role="alert" sx={{ mb: message ? 2 : 0 }}>
      {message && (
        <Typography
          variant="body2"
          sx={{
            color: 'error.main',
            border: 1,
            borderColor: 'error.main',
            borderRadius: 1,
            px: 2,
            py: 1.5,
            overflowWrap: 'anywhere',
          }}
        >
          {message}
        </Typography>
      )}
    </Box>
  );
}
