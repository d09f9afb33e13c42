// The selection bar's toolbar (SelectionBar.tsx fetches this module the first time something is selected, so that a
// view opening without a selection, a public album's grid, loads neither it nor MUI's Button, IconButton and Paper):
// the count and each action the page gives, with its icon; Escape in it clears the selection.
import CloseIcon from '@mui/icons-material/Close';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { selectionIcons as icon } from './selection-icons.tsx';
import type { SelectionBarProps } from './SelectionBar.tsx';

export function SelectionToolbar(props: SelectionBarProps) {
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
  return (
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
        {t('selection.count', { count })}
      </Typography>
      <Action icon={icon.addToAlbum} label={t('selection.add_to_album')} onClick={onAddToAlbum} />
      <Action icon={icon.moveToAlbum} label={t('selection.move_to_album')} onClick={onMoveToAlbum} />
      <Action icon={icon.removeFromAlbum} label={t('selection.remove_from_album')} onClick={onRemoveFromAlbum} />
      <Action icon={icon.download} label={t('selection.download')} onClick={onDownload} />
      <Action icon={icon.slideshow} label={t('slideshow.start')} onClick={onSlideshow} />
      <Action icon={icon.trash} label={t('selection.trash')} onClick={onTrash} color="error" />
      <Action icon={icon.restore} label={t('trash.restore')} onClick={onRestore} />
      <Action icon={icon.deleteForever} label={t('trash.delete_forever')} onClick={onDeleteForever} color="error" />
    </Paper>
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
