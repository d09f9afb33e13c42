// The bar of actions over the selected files, over the top of the page: how many are selected (also said to
// screen readers as it changes), and add to an album, move to an album, download, a slideshow, move to the trash
// (in the trash: restore, delete for ever), and clear. Each action is a
// callback of the page; one it does not give is not shown (a shared album's viewer cannot move or trash).
// Escape in the bar clears the selection, as it does in the grid. The actions' icons are fetched the first time
// something is selected (selection-icons.tsx): until they arrive, a moment, the buttons show their labels alone.
import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import visuallyHidden from '@mui/utils/visuallyHidden';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { lazyModule } from '../../app/lazy-module.ts';

/** The actions' icons, fetched once per tab (a failure is tried again the next time). */
const selectionIcons = lazyModule(() => import('./selection-icons.tsx'));

/** The actions' icons once fetched; fetching starts when `wanted` first is true. */
function useSelectionIcons(wanted: boolean) {
  const [loaded, setLoaded] = useState(() => selectionIcons.loaded()?.selectionIcons);
  useEffect(() => {
    if (!wanted || loaded) return;
    let live = true;
    selectionIcons.load().then(
      (module) => live && setLoaded(module.selectionIcons),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [wanted, loaded]);
  return loaded;
}

export interface SelectionBarProps {
  /** How many files are selected; the bar shows while there is at least one. */
  count: number;
  onClear: () => void;
  onAddToAlbum?: () => void;
  onMoveToAlbum?: () => void;
  /** In an album's view: the files leave that album (they stay in the library). */
  onRemoveFromAlbum?: () => void;
  onDownload?: () => void;
  /** A slideshow of the selected files. */
  onSlideshow?: () => void;
  onTrash?: () => void;
  /** In the trash. */
  onRestore?: () => void;
  onDeleteForever?: () => void;
}

export function SelectionBar(props: SelectionBarProps) {
  const {
    count,
    onClear,
    onAddToAlbum,
    onMoveToAlbum,
    onRemoveFromAlbum,
    onDownload,
    onSlideshow,
    onTrash,
    onRestore,
    onDeleteForever,
  } = props;
  const { t } = useTranslation('photos');
  const countText = t('selection.count', { count });
  const icon = useSelectionIcons(count > 0);
  return (
    <>
      {/* Always in the page, so that the first change of the count is announced too. */}
      <Box role="status" sx={visuallyHidden}>
        {count > 0 ? countText : ''}
      </Box>
      {count > 0 && (
        <Paper
          role="toolbar"
          aria-label={t('selection.bar_label')}
          elevation={6}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            event.preventDefault();
            onClear();
          }}
          square
          // Over the page's top bar while something is selected, as photo apps do: the actions replace it.
          sx={{
            position: 'fixed',
            insetInline: 0,
            top: 0,
            minHeight: 64,
            zIndex: (theme) => theme.zIndex.appBar,
            display: 'flex',
            alignItems: 'center',
            flexWrap: 'wrap',
            columnGap: 0.5,
            px: { xs: 1, sm: 2 },
          }}
        >
          <IconButton aria-label={t('selection.clear')} onClick={onClear}>
            <CloseIcon />
          </IconButton>
          <Typography aria-hidden sx={{ fontWeight: 600, mr: 1, whiteSpace: 'nowrap' }}>
            {countText}
          </Typography>
          <Action icon={icon?.addToAlbum} label={t('selection.add_to_album')} onClick={onAddToAlbum} />
          <Action icon={icon?.moveToAlbum} label={t('selection.move_to_album')} onClick={onMoveToAlbum} />
          <Action icon={icon?.removeFromAlbum} label={t('selection.remove_from_album')} onClick={onRemoveFromAlbum} />
          <Action icon={icon?.download} label={t('selection.download')} onClick={onDownload} />
          <Action icon={icon?.slideshow} label={t('slideshow.start')} onClick={onSlideshow} />
          <Action icon={icon?.trash} label={t('selection.trash')} onClick={onTrash} color="error" />
          <Action icon={icon?.restore} label={t('trash.restore')} onClick={onRestore} />
          <Action
            icon={icon?.deleteForever}
            label={t('trash.delete_forever')}
            onClick={onDeleteForever}
            color="error"
          />
        </Paper>
      )}
    </>
  );
}

function Action({
  icon,
  label,
  onClick,
  color = 'inherit',
}: {
  icon: ReactNode | undefined;
  label: string;
  onClick: (() => void) | undefined;
  color?: 'inherit' | 'error';
}) {
  if (!onClick) return null;
  return (
    <Button color={color} startIcon={icon} onClick={onClick} sx={{ whiteSpace: 'nowrap' }}>
      {label}
    </Button>
  );
}
