// /shared-albums: a public album opened from its link, with no account (pages/shared-albums.tsx loads this module
// with import()). The link's token and key come from the address (public-album/link.ts); the album, the password
// step and the files from public-album/. This module is the light part every link loads: the states and the
// failures. The password form (public-album/PasswordForm.tsx) is fetched when a link asks for a password; the album
// itself (the grid: SharedAlbumView.tsx) once the album opens, in parallel with its files; the viewer when a photo
// opens (LazyViewer), the download code when a download is asked for. Every way it can fail is said in words
// (public-album/errors.ts).
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';

import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';

import { usePhotosTranslations } from '../components/use-photos-translations.ts';
import type { GalleryFile } from '../library/types.ts';
import { setMediaRoutes } from '../media/media.ts';
import { PublicAlbumError, type PublicAlbumErrorReason } from '../public-album/errors.ts';
import { parsePublicLink, type PublicLinkParts } from '../public-album/link.ts';
import { LinkProblem, type LinkProblemReason } from '../public-album/LinkProblem.tsx';
import type { PasswordProblem } from '../public-album/PasswordForm.tsx';
import { publicAlbum, type PublicAlbum, type PublicAlbumInfo } from '../public-album/public-album.ts';
import { lazyModule } from './lazy-module.ts';
import type { AlbumView } from './SharedAlbumView.tsx';

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

/** The album's grid and what it brings (the selection, the viewer's loader); fetched once an album opens. */
const albumView = lazyModule(() => import('./SharedAlbumView.tsx'));

/** The password form (its field, its alert), fetched when a link asks for a password: an open album never needs it. */
const PasswordForm = lazy(() =>
  import('../public-album/PasswordForm.tsx').then((module) => ({ default: module.PasswordForm })),
);

export function SharedAlbumPage(props: SharedAlbumPageProps) {
  return usePhotosTranslations('album') ? <OpenedLink {...props} /> : <LoadingOverlay />;
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
    // First: pointing the media loader elsewhere ends its worker, which opens this album too (public-album/).
    setMediaRoutes(source.mediaRoutes);
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
      return (
        <Suspense fallback={<LoadingOverlay />}>
          <PasswordForm problem={state.problem} busy={state.busy === true} onSubmit={(pw) => void unlock(pw)} />
        </Suspense>
      );
    case 'album':
      return <state.View info={state.info} files={state.files} />;
  }
}

/** A reason the password step does not handle, as a failure of the whole page. */
function failureOf(reason: PublicAlbumErrorReason): LinkProblemReason {
  return reason === 'passwordRequired' || reason === 'wrongPassword' || reason === 'tooManyTries' ? 'server' : reason;
}
