// The bar of actions over the selected files, over the top of the page: how many are selected (also said to
// screen readers as it changes), and add to an album, move to an album, download, a slideshow, move to the trash
// (in the trash: restore, delete for ever), and clear. Each action is a
// callback of the page; one it does not give is not shown (a shared album's viewer cannot move or trash).
// Escape in the bar clears the selection, as it does in the grid. The toolbar and its icons (SelectionToolbar.tsx)
// are fetched the first time something is selected: a view that opens without a selection (a public album's grid)
// does not load them, nor MUI's buttons. Only the count's status line is here from the start.
import Box from '@mui/material/Box';
import visuallyHidden from '@mui/utils/visuallyHidden';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { lazyModule } from '../../app/lazy-module.ts';

/** The toolbar, fetched once per tab (a failure is tried again the next time something is selected). */
const selectionToolbar = lazyModule(() => import('./SelectionToolbar.tsx'));

/** The toolbar once fetched; fetching starts when `wanted` first is true. */
function useSelectionToolbar(wanted: boolean) {
  const [loaded, setLoaded] = useState(() => selectionToolbar.loaded());
  useEffect(() => {
    if (!wanted || loaded) return;
    let live = true;
    selectionToolbar.load().then(
      (module) => live && setLoaded(module),
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
  const { count } = props;
  const { t } = useTranslation('photos');
  const toolbar = useSelectionToolbar(count > 0);
  return (
    <>
      {/* Always in the page, so that the first change of the count is announced too. */}
      <Box role="status" sx={visuallyHidden}>
        {count > 0 ? t('selection.count', { count }) : ''}
      </Box>
      {count > 0 && toolbar && <toolbar.SelectionToolbar {...props} />}
    </>
  );
}
