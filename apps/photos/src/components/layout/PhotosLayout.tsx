// The frame of the photos app's library pages (docs/product.md#app-shell, as PageFrame for the other apps): a
// top bar with the logo, the Upload button and the app menu (theme, language, the account's settings and
// logout, from the shell and packages/accounts), the navigation between the sections, and the page's content in
// <main> under its one h1. With `onFiles`, files and folders dropped anywhere on the page come to it too; with
// `dropRefusal` instead, a drag over the page shows why the page takes nothing, and a drop says it again.
// Waits for the photos translations (shows the loading overlay until then).
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { useLoggedIn } from '@ente/shared/app/use-logged-in.ts';
import { AppMenu } from '@ente/shared/components/AppMenu.tsx';
import { EnteLogo } from '@ente/shared/components/EnteLogo.tsx';
import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { cornerAlertSx } from '../corner-alert.ts';
import { usePhotosTranslations } from '../use-photos-translations.ts';
import type { PickedFile } from './picked-files.ts';
import { SectionNav } from './SectionNav.tsx';
import { sectionHref, type PhotosSection } from './sections.ts';
import { UploadButton } from './UploadButton.tsx';
import { usePageDrop } from './use-page-drop.ts';

export interface PhotosLayoutProps {
  /** The section shown, marked in the navigation. */
  section: PhotosSection;
  /** The text of the page's h1; the section's name unless given (an album's name, say). */
  title?: string;
  /**
   * Files picked with the Upload button or dropped on the page, with their relative paths. Without it there
   * is no Upload button and drops are left to the browser (a page that cannot upload, such as the trash).
   */
  onFiles?: (files: PickedFile[]) => void;
  /**
   * Without `onFiles`: why this page takes no files (an album shared to view only), shown while files are dragged
   * over it and after they are dropped (nothing is uploaded).
   */
  dropRefusal?: string;
  /** Where each section lives; `sectionHref` unless given. */
  hrefFor?: (section: PhotosSection) => string;
  /** Shown in the top bar before the Upload button (a page's own actions). */
  actions?: ReactNode;
  children?: ReactNode;
}

export function PhotosLayout(props: PhotosLayoutProps) {
  return usePhotosTranslations() ? <TranslatedLayout {...props} /> : <LoadingOverlay />;
}

function TranslatedLayout(props: PhotosLayoutProps) {
  const { section, title, onFiles, hrefFor = sectionHref, actions, children } = props;
  const { t } = useTranslation('photos');
  const { t: tc } = useTranslation('common');
  const refusal = onFiles ? undefined : props.dropRefusal;
  const { dragging, unreadable, dismissUnreadable, refused, dismissRefused } = usePageDrop(
    onFiles,
    refusal !== undefined,
  );
  const loggedIn = useLoggedIn();
  // Read when rendering signed in, which the prerender never is (useLoggedIn says no there).
  const email = loggedIn ? savedUser()?.email : undefined;

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <Box
        component="header"
        sx={{ display: 'flex', alignItems: 'center', gap: 1, px: { xs: 2, sm: 3 }, py: 1.5, flexWrap: 'wrap' }}
      >
        <EnteLogo />
        <Typography component="span" sx={{ fontWeight: 600, color: 'text.secondary', mr: 'auto' }}>
          {t('nav.photos')}
        </Typography>
        {actions}
        {onFiles && <UploadButton onFiles={onFiles} />}
        <AppMenu />
      </Box>
      <SectionNav current={section} hrefFor={hrefFor} />
      <Box component="main" sx={{ flex: 1, display: 'flex', flexDirection: 'column', px: { xs: 1, sm: 3 }, pt: 2 }}>
        <Typography variant="h5" component="h1" sx={{ mb: email ? 0.5 : 2 }}>
          {title ?? t(`nav.${section}`)}
        </Typography>
        {email && (
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2, overflowWrap: 'anywhere' }}>
            {tc('landing_signed_in_as', { email })}
          </Typography>
        )}
        {children}
      </Box>
      {dragging && <DropHint text={refusal ?? t('layout.drop_hint')} />}
      {unreadable > 0 && (
        <DropAlert onClose={dismissUnreadable}>{t('upload_problem.drop_unreadable', { count: unreadable })}</DropAlert>
      )}
      {/* Once the drag is over (the hint says it during): a browser sends no drop where the page refuses it. */}
      {refused && !dragging && refusal !== undefined && <DropAlert onClose={dismissRefused}>{refusal}</DropAlert>}
    </Box>
  );
}

/** What became of a drop, at the top of the window until closed. */
function DropAlert({ onClose, children }: { onClose: () => void; children: ReactNode }) {
  return (
    <Alert severity="warning" onClose={onClose} sx={cornerAlertSx('top', 'right')}>
      {children}
    </Alert>
  );
}

/** While files are dragged over the page: the page outlined as the drop target, and what dropping does. */
function DropHint({ text }: { text: string }) {
  return (
    <Box
      aria-hidden
      sx={(theme) => ({
        position: 'fixed',
        inset: 0,
        zIndex: theme.zIndex.modal - 1,
        pointerEvents: 'none',
        outline: `3px dashed ${theme.palette.primary.main}`,
        outlineOffset: -8,
        bgcolor: 'rgba(0, 0, 0, 0.35)',
      })}
    >
      <Typography
        variant="h6"
        component="p"
        sx={{ position: 'absolute', top: '40%', insetInline: 16, textAlign: 'center', color: 'common.white' }}
      >
        {text}
      </Typography>
    </Box>
  );
}
