// The deduplicate page's view: the groups of identical files (../../dedup/duplicates.ts finds them), each with the
// copy kept and those going to the trash, a checkbox to leave a group out, how many files go and how much space
// that frees, and "Remove duplicates", confirmed first. A copy that stays (in an album the person can only view)
// says so. The groups come GROUPS_SHOWN at a time ("Show more") and each shows FILES_SHOWN copies at most, so that
// a library with thousands of duplicates mounts no thousands of thumbnails. The page runs the plan (dedupPlan,
// then the library's writes); this view only says which groups.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';

import { currentLocale } from '@ente/shared/i18n/i18n.ts';

import type { DuplicateGroup } from '../../dedup/duplicates.ts';
import type { GalleryFile } from '../../library/types.ts';
import { EmptyState } from '../EmptyState.tsx';
import { PlaceholderThumbnail, type ThumbnailProps } from '../gallery/Thumbnail.tsx';
import { formatBytes } from '../viewer/viewer-model.ts';

/** Groups shown at first, and added by each "Show more". */
export const GROUPS_SHOWN = 50;
/** Copies shown of one group (the kept one first); the rest are counted. */
export const FILES_SHOWN = 12;

const ConfirmDialog = lazy(() => import('../ConfirmDialog.tsx').then((m) => ({ default: m.ConfirmDialog })));

export interface DedupViewProps {
  groups: readonly DuplicateGroup[];
  /** The thumbnails (see `thumbnailFromHook`); placeholders unless given. */
  Thumbnail?: ComponentType<ThumbnailProps>;
  /** Removes the duplicates of these groups (the page runs dedupPlan); resolves once done. */
  onRemove: (groups: readonly DuplicateGroup[]) => Promise<unknown>;
}

export function DedupView({ groups, Thumbnail = PlaceholderThumbnail, onRemove }: DedupViewProps) {
  const { t } = useTranslation('photos');
  // The groups left out by the person, by key (every group is in at first, and so is a new one).
  const [left, setLeft] = useState<ReadonlySet<string>>(new Set());
  const [confirm, setConfirm] = useState<{ open: boolean; key: number }>();
  const [shown, setShown] = useState(GROUPS_SHOWN);
  if (groups.length === 0) return <EmptyState body={t('dedup.none')} />;

  const chosen = groups.filter((group) => !left.has(group.key));
  const count = chosen.reduce((sum, group) => sum + group.trash.length, 0);
  const size = formatBytes(
    chosen.reduce((sum, group) => sum + group.freedBytes, 0),
    currentLocale(),
  );
  const toggle = (key: string) =>
    setLeft((current) => {
      const next = new Set(current);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 2, mb: 2 }}>
        <Typography sx={{ flex: 1, minWidth: 240 }}>
          {t('dedup.summary', { groups: chosen.length, count, size })}
        </Typography>
        <Button
          variant="contained"
          color="error"
          disabled={count === 0}
          onClick={() => setConfirm({ open: true, key: (confirm?.key ?? 0) + 1 })}
        >
          {t('dedup.remove')}
        </Button>
      </Box>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2 }}>
        {groups.slice(0, shown).map((group) => (
          <Box component="li" key={group.key} sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5 }}>
            <FormControlLabel
              control={<Checkbox checked={!left.has(group.key)} onChange={() => toggle(group.key)} />}
              label={`${t('dedup.include')} (${t('dedup.group', { count: group.files.length })})`}
            />
            <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexWrap: 'wrap', gap: 1 }}>
              {group.files.slice(0, FILES_SHOWN).map((file) => (
                <DuplicateFile key={file.id} file={file} fate={fateOf(group, file)} Thumbnail={Thumbnail} />
              ))}
            </Box>
            {group.files.length > FILES_SHOWN && (
              <Typography variant="body2" sx={{ mt: 1, color: 'text.secondary' }}>
                {t('dedup.more_files', { count: group.files.length - FILES_SHOWN })}
              </Typography>
            )}
          </Box>
        ))}
      </Box>
      {groups.length > shown && (
        <Button sx={{ mt: 2 }} onClick={() => setShown((count) => count + GROUPS_SHOWN)}>
          {t('dedup.show_more', { count: groups.length - shown })}
        </Button>
      )}
      {confirm && (
        <Suspense fallback={null}>
          <ConfirmDialog
            key={confirm.key}
            open={confirm.open}
            title={t('dedup.confirm_title')}
            description={t('dedup.confirm_body', { count })}
            confirmLabel={t('dedup.remove')}
            onClose={() => setConfirm({ ...confirm, open: false })}
            onConfirm={() => onRemove(chosen)}
          />
        </Suspense>
      )}
    </>
  );
}

type Fate = 'kept' | 'to_trash' | 'stays';

function fateOf(group: DuplicateGroup, file: GalleryFile): Fate {
  if (file.id === group.keep.id) return 'kept';
  return group.stays.includes(file) ? 'stays' : 'to_trash';
}

function DuplicateFile({
  file,
  fate,
  Thumbnail,
}: {
  file: GalleryFile;
  fate: Fate;
  Thumbnail: ComponentType<ThumbnailProps>;
}) {
  const kept = fate === 'kept';
  const { t } = useTranslation('photos');
  const title = file.metadata.title;
  return (
    <Box component="li" sx={{ width: 120 }}>
      <Box
        sx={{
          width: 120,
          height: 120,
          borderRadius: 1,
          overflow: 'hidden',
          outline: kept ? '3px solid' : 'none',
          outlineColor: 'primary.main',
          outlineOffset: -3,
        }}
      >
        <Thumbnail file={file} alt={title} />
      </Box>
      <Typography variant="caption" noWrap sx={{ display: 'block', mt: 0.5 }} title={title}>
        {title}
      </Typography>
      <Typography
        variant="caption"
        sx={{ display: 'block', color: kept ? 'primary.main' : 'text.secondary', fontWeight: 600 }}
      >
        {t(`dedup.${fate}`)}
      </Typography>
    </Box>
  );
}
