// /shared-albums: a public album opened from its link, with no account (pages/shared-albums.tsx loads this module
// with import()). The link's token and key come from the address (public-album/link.ts); the album, the password
// step and the files from public-album/; the grid, the viewer and the downloads are the library pages' own
// (components/PhotosView, media/ pointed at the link's routes, download/), downloads offered only when the link
// allows them. Every way it can fail is said in words (public-album/errors.ts).
import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useRef, useState, type ReactNode, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';
import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';
import { PageFrame } from '@ente/shared/components/PageFrame.tsx';
import { PageHeader } from '@ente/shared/components/PageHeader.tsx';
import { log } from '@ente/shared/log.ts';

import { EmptyState } from '../components/EmptyState.tsx';
import { PhotosView } from '../components/PhotosView.tsx';
import { usePhotosTranslations } from '../components/use-photos-translations.ts';
import { downloadOriginal, downloadZip } from '../download/download.ts';
import { DownloadError } from '../download/save.ts';
import type { GalleryFile } from '../library/types.ts';
import { setMediaRoutes } from '../media/media.ts';
import { PublicAlbumError, type PublicAlbumErrorReason } from '../public-album/errors.ts';
import { parsePublicLink, type PublicLinkParts } from '../public-album/link.ts';
import { LinkProblem, type LinkProblemReason } from '../public-album/LinkProblem.tsx';
import { publicAlbum, type PublicAlbum, type PublicAlbumInfo } from '../public-album/public-album.ts';
import { LibraryThumbnail } from './thumbnail.ts';
import { useViewerMedia } from './use-viewer-media.ts';

/** What the password form says under its field. */
type PasswordProblem = 'wrongPassword' | 'tooManyTries' | 'network' | 'server';

type PageState =
  | { kind: 'opening' }
  | { kind: 'failed'; reason: LinkProblemReason }
  | { kind: 'password'; info: PublicAlbumInfo; problem?: PasswordProblem; busy?: boolean }
  | { kind: 'album'; info: PublicAlbumInfo; files: readonly GalleryFile[] };

export interface SharedAlbumPageProps {
  /** The address the link was opened at; the page's own unless given (tests). */
  href?: string;
  /** The album behind a link; public-album's unless given (tests). */
  openAlbum?: (link: PublicLinkParts) => PublicAlbum;
}

const reasonOf = (error: unknown) =>
  error instanceof PublicAlbumError ? error.reason : ('server' satisfies PublicAlbumErrorReason);

/** Saves the files picked (one original as it is, several as a ZIP named after the album); from a click. */
function save(files: readonly GalleryFile[], albumName: string): void {
  const saving = files.length > 1 || !files[0] ? downloadZip(files, albumName) : downloadOriginal(files[0]);
  saving.catch((error: unknown) => {
    if (!(error instanceof DownloadError && error.reason === 'cancelled')) log.error('Could not download', error);
  });
}

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
      const files = await source.files();
      if (!live.current) return;
      // Set before the grid asks for its first thumbnail.
      setMediaRoutes(source.mediaRoutes);
      setState({ kind: 'album', info, files });
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
      setMediaRoutes(undefined);
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
      return <AlbumView info={state.info} files={state.files} />;
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
        <TextField
          inputRef={field}
          type="password"
          label={t('public_album.password_label')}
          autoComplete="off"
          autoFocus
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={problem === 'wrongPassword'}
          slotProps={{ htmlInput: { 'aria-describedby': problem ? 'public-album-password-problem' : undefined } }}
        />
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

function AlbumFrame({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <PageHeader />
      <Box component="main" sx={{ flex: 1, display: 'flex', flexDirection: 'column', px: { xs: 1, sm: 3 }, pt: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 2 }}>
          <Typography variant="h5" component="h1" sx={{ mr: 'auto', overflowWrap: 'anywhere' }}>
            {title}
          </Typography>
          {actions}
        </Box>
        {children}
      </Box>
    </Box>
  );
}

function AlbumView({ info, files }: { info: PublicAlbumInfo; files: readonly GalleryFile[] }) {
  const { t } = useTranslation('photos');
  const name = info.name === '' ? t('public_album.untitled') : info.name;
  const canDownload = info.enableDownload && files.length > 0;
  const picked = (ids: readonly number[]) => files.filter((file) => ids.includes(file.id));
  return (
    <AlbumFrame
      title={name}
      actions={
        canDownload && (
          <Button startIcon={<DownloadIcon />} onClick={() => save(files, name)}>
            {t('public_album.download_album')}
          </Button>
        )
      }
    >
      {files.length === 0 ? (
        <EmptyState title={t('public_album.empty_title')} body={t('public_album.empty_body')} />
      ) : (
        <PhotosView
          files={files}
          albums={[]}
          Thumbnail={LibraryThumbnail}
          useViewerMedia={useViewerMedia}
          label={name}
          actions={canDownload ? { download: (ids) => save(picked(ids), name) } : {}}
        />
      )}
    </AlbumFrame>
  );
}
