// The password form of a public link (public-album.ts's `unlock`), fetched by SharedAlbumPage.tsx only when a link
// asks for a password, so that an album without one never loads its field and alert.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useRef, useState, type ChangeEvent, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';
import { PageFrame } from '@ente/shared/components/PageFrame.tsx';

/** What the password form says under its field. */
export type PasswordProblem = 'wrongPassword' | 'tooManyTries' | 'network' | 'server';

export function PasswordForm(props: {
  problem?: PasswordProblem;
  busy: boolean;
  onSubmit: (password: string) => void;
}) {
  const { problem, busy, onSubmit } = props;
  const { t } = useTranslation('photos');
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
      <Typography sx={{ color: 'text.secondary', mb: 3 }}>{t('public_album.password_body')}</Typography>
      <Box component="form" onSubmit={submit} noValidate sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {/*
          A plain field, drawn as MUI's outlined one, with its label above it and the problem as a line under it:
          MUI's input parts (InputBase and its autosizing textarea, the floating label, the form control) would put
          this route's first load over its budget.
        */}
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
          <Typography component="label" htmlFor={fieldId} sx={{ fontWeight: 500 }}>
            {label}
          </Typography>
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
            <Typography id="public-album-password-problem" role="alert" variant="body2" sx={{ color: 'error.main' }}>
              {t(`public_album.password_${problem}`)}
            </Typography>
          )}
        </Box>
        <LoadingButton type="submit" variant="contained" loading={busy} disabled={password === ''}>
          {t('public_album.unlock')}
        </LoadingButton>
      </Box>
    </PageFrame>
  );
}
