// /shared-albums: a public album opened from its link, with no account (pages/shared-albums.tsx loads this module
// with import()). The link's token and key come from the address (public-album/link.ts); the album, the password
// step and the files from public-album/. This module is the light part every link loads: the password form and the
// failures. The album itself (the grid: SharedAlbumView.tsx) is fetched once the album opens, in parallel with its
// files; the viewer when a photo opens (LazyViewer), the download code when a download is asked for. Every way it
// can fail is said in words (public-album/errors.ts).
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useMemo, useRef, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';
import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';
import { PageFrame } from '@ente/shared/components/PageFrame.tsx';

import { usePhotosTranslations } from '../components/use-photos-translations.ts';
import type { GalleryFile } from '../library/types.ts';
import { PublicAlbumError, type PublicAlbumErrorReason } from '../public-album/errors.ts';
import { parsePublicLink, type PublicLinkParts } from '../public-album/link.ts';
import { LinkProblem, type LinkProblemReason } from '../public-album/LinkProblem.tsx';
import { publicAlbum, type PublicAlbum, type PublicAlbumInfo } from '../public-album/public-album.ts';
import type { AlbumView } from './SharedAlbumView.tsx';
import { lazyModule } from './use-signed-in-module.ts';

/** What the password form says under its field. */
type PasswordProblem = 'wrongPassword' | 'tooManyTries' | 'network' | 'server';

type PageState =
  | { kind: 'opening' }
  | { kind: 'failed'; reason: LinkProblemReason }
  | { kind: 'password'; info: PublicAlbumInfo; problem?: PasswordProblem; busy?: boolean }
  | { kind: 'album'; info: PublicAlbumInfo; files: readonly GalleryFile[]; View: typeof AlbumView };

export interface SharedAlbumPageProps {
  /** The address the link was opened at; the page's own unless given (tests). */
  href?: string;
  /** The album behind a link; public-album's unless given (tests). */
  openAlbum?: (link: PublicLinkParts) => PublicAlbum;
}

const reasonOf = (error: unknown) =>
  error instanceof PublicAlbumError ? error.reason : ('server' satisfies PublicAlbumErrorReason);

/** The album's grid and what it brings (the media loader, the selection); fetched once an album opens. */
const albumView = lazyModule(() => import('./SharedAlbumView.tsx'));

export function SharedAlbumPage(props: SharedAlbumPageProps) {
  return usePhotosTranslations() ? <OpenedLink {...props} /> : <LoadingOverlay />;
}

function OpenedLink({ href, openAlbum = publicAlbum }: SharedAlbumPageProps) {
  const [state, setState] = useState<PageState>({ kind: 'opening' });
  const [attempt, setAttempt] = useState(0);
  const album = useRef<PublicAlbum>(undefined);
  const live = useRef(true);

  /** The files once the album may be read; a failure goes to the state it calls for. */
  const showFiles = async (source: PublicAlbum, info: PublicAlbumInfo) => {
    try {
      const [files, view] = await Promise.all([source.files(), albumView.load()]);
      if (!live.current) return;
      // Set before the grid asks for its first thumbnail.
      view.setMediaRoutes(source.mediaRoutes);
      setState({ kind: 'album', info, files, View: view.AlbumView });
    } catch (error) {
      if (!live.current) return;
      const reason = reasonOf(error);
      if (reason === 'passwordRequired') setState({ kind: 'password', info });
      else setState({ kind: 'failed', reason: failureOf(reason) });
    }
  };

  // Read from the address while rendering: this module is never prerendered (pages/shared-albums.tsx loads it).
  const link = useMemo(() => parsePublicLink(href ?? window.location.href), [href]);

  useEffect(() => {
    if (!link) return;
    live.current = true;
    const source = openAlbum(link);
    album.current = source;
    source.info().then(
      (info) => {
        if (!live.current) return;
        if (info.passwordEnabled) setState({ kind: 'password', info });
        else void showFiles(source, info);
      },
      (error: unknown) => live.current && setState({ kind: 'failed', reason: failureOf(reasonOf(error)) }),
    );
    return () => {
      live.current = false;
      album.current = undefined;
      // Nothing to reset when the album never opened (the media loader is the album view's).
      albumView.loaded()?.setMediaRoutes(undefined);
    };
  }, [link, openAlbum, attempt]);

  const unlock = async (password: string) => {
    const source = album.current;
    if (!source || state.kind !== 'password') return;
    const { info } = state;
    setState({ kind: 'password', info, busy: true });
    try {
      await source.unlock(password);
    } catch (error) {
      if (!live.current) return;
      const reason = reasonOf(error);
      if (reason === 'wrongPassword' || reason === 'tooManyTries' || reason === 'network' || reason === 'server') {
        setState({ kind: 'password', info, problem: reason });
      } else setState({ kind: 'failed', reason: failureOf(reason) });
      return;
    }
    await showFiles(source, info);
  };

  if (!link) return <LinkProblem reason="wrongLink" />;
  switch (state.kind) {
    case 'opening':
      return <LoadingOverlay />;
    case 'failed':
      return (
        <LinkProblem
          reason={state.reason}
          onRetry={() => {
            setState({ kind: 'opening' });
            setAttempt((n) => n + 1);
          }}
        />
      );
    case 'password':
      return <PasswordForm problem={state.problem} busy={state.busy === true} onSubmit={(pw) => void unlock(pw)} />;
    case 'album':
      return <state.View info={state.info} files={state.files} />;
  }
}

/** A reason the password step does not handle, as a failure of the whole page. */
function failureOf(reason: PublicAlbumErrorReason): LinkProblemReason {
  return reason === 'passwordRequired' || reason === 'wrongPassword' || reason === 'tooManyTries' ? 'server' : reason;
}

function PasswordForm(props: { problem?: PasswordProblem; busy: boolean; onSubmit: (password: string) => void }) {
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
        {/* MUI's parts rather than TextField, which would bring its Select (Menu, Popover, Modal) along. */}
        <FormControl variant="outlined" error={problem === 'wrongPassword'}>
          <InputLabel htmlFor={fieldId}>{label}</InputLabel>
          <OutlinedInput
            id={fieldId}
            label={label}
            inputRef={field}
            type="password"
            autoComplete="off"
            autoFocus
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            inputProps={{ 'aria-describedby': problem ? 'public-album-password-problem' : undefined }}
          />
        </FormControl>
        {problem && (
          <Alert severity="error" id="public-album-password-problem" role="alert">
            {t(`public_album.password_${problem}`)}
          </Alert>
        )}
        <LoadingButton type="submit" variant="contained" loading={busy} disabled={password === ''}>
          {t('public_album.unlock')}
        </LoadingButton>
      </Box>
    </PageFrame>
  );
}
