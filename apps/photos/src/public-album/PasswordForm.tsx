// The password form of a public link (public-album.ts's `unlock`), fetched by SharedAlbumPage.tsx only when a link
// asks for a password, so that an album without one never loads its field and alert.
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useEffect, useId, useRef, useState, type ChangeEvent, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { PageFrame } from '@ente/shared/components/PageFrame.tsx';
import { PlainButton } from '@ente/shared/components/PlainButton.tsx';

/** What the password form says under its field. */
export type PasswordProblem = 'wrongPassword' | 'tooManyTries' | 'network' | 'server';

export function PasswordForm(props: {
  problem?: PasswordProblem;
  busy: boolean;
  onSubmit: (password: string) => void;
}) {
  const { problem, busy, onSubmit } = props;
  const { t } = useTranslation('photos');
  const { t: tCommon } = useTranslation('common');
  const [password, setPassword] = useState('');
  const field = useRef<HTMLInputElement>(null);
  const fieldId = useId();
  const label = t('public_album.password_label');
  // A refused password is selected, so that typing replaces it.
  useEffect(() => {
    if (problem) field.current?.select();
  }, [problem]);
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (password !== '' && !busy) onSubmit(password);
  };
  return (
    <PageFrame title={t('public_album.password_title')}>
      <Box component="p" sx={{ typography: 'body1', color: 'text.secondary', mt: 0, mb: 3 }}>
        {t('public_album.password_body')}
      </Box>
      <Box component="form" onSubmit={submit} noValidate sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {/*
          A plain field, drawn as MUI's outlined one, with its label above it and the problem as a line under it, and
          plain elements around it (a plain button, Box for text): MUI's input parts (InputBase and its autosizing
          textarea, the floating label, the form control), its Button and Typography would put this route's first
          load over its budget.
        */}
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
          <Box component="label" htmlFor={fieldId} sx={{ typography: 'body1', fontWeight: 500 }}>
            {label}
          </Box>
          <Box
            component="input"
            id={fieldId}
            ref={field}
            type="password"
            autoComplete="off"
            autoFocus
            aria-invalid={problem === 'wrongPassword'}
            aria-describedby={problem ? 'public-album-password-problem' : undefined}
            value={password}
            onChange={(event: ChangeEvent<HTMLInputElement>) => setPassword(event.target.value)}
            sx={(theme) => ({
              font: 'inherit',
              color: 'text.primary',
              bgcolor: 'transparent',
              px: 1.75,
              py: 2,
              borderRadius: 1,
              border: 1,
              borderColor: theme.palette.mode === 'light' ? 'rgba(0, 0, 0, 0.23)' : 'rgba(255, 255, 255, 0.23)',
              '&:hover': { borderColor: 'text.primary' },
              '&:focus': {
                outline: 'none',
                borderColor: 'primary.main',
                boxShadow: `inset 0 0 0 1px ${theme.palette.primary.main}`,
              },
              '&[aria-invalid="true"]': { borderColor: 'error.main' },
              '&[aria-invalid="true"]:focus': { boxShadow: `inset 0 0 0 1px ${theme.palette.error.main}` },
            })}
          />
          {problem && (
            <Box
              component="p"
              id="public-album-password-problem"
              role="alert"
              sx={{ typography: 'body2', color: 'error.main', m: 0 }}
            >
              {t(`public_album.password_${problem}`)}
            </Box>
          )}
        </Box>
        {/* As the shell's LoadingButton: while busy a spinner over the hidden label, which names the button. */}
        <PlainButton
          type="submit"
          variant="contained"
          disabled={busy || password === ''}
          aria-busy={busy || undefined}
          aria-label={busy ? tCommon('loading') : undefined}
          sx={{ position: 'relative' }}
        >
          <Box component="span" aria-hidden={busy || undefined} sx={{ visibility: busy ? 'hidden' : 'visible' }}>
            {t('public_album.unlock')}
          </Box>
          {busy && (
            <Box
              component="span"
              sx={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
            >
              <CircularProgress size={20} color="inherit" aria-label={tCommon('loading')} />
            </Box>
          )}
        </PlainButton>
      </Box>
    </PageFrame>
  );
}
