// The selection of a view of files, as React state: files that leave the view (trashed, moved out, restored)
// leave the selection too.
import { useMemo, useState } from 'react';

import type { GalleryFile } from '../../library/types.ts';
import { emptySelection, prune, type Selection } from './selection-model.ts';

export function useViewSelection(files: readonly GalleryFile[]) {
  const [state, setSelection] = useState<Selection>(emptySelection);
  const present = useMemo(() => new Set(files.map((file) => file.id)), [files]);
  const selection = prune(state, present);
  // React's "adjust state when a prop changes": the pruned selection becomes the state.
  if (selection !== state) setSelection(selection);
  const clear = () => setSelection(emptySelection);
  return {
    selection,
    clear,
    ids: [...selection.ids],
    /** The grid's selection props. */
    gridProps: { selection, onSelectionChange: setSelection },
    /** The selection bar's count and clear. */
    barProps: { count: selection.ids.size, onClear: clear },
  };
}
