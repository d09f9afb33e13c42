// The top bar's Upload button: a menu of "Files…" and "A folder…", each opening the browser's picker (the
// folder one with `webkitdirectory`, which hands the folder's whole tree with relative paths). The menu's
// code is fetched on the first press, so it is not in the page's first load.
import UploadIcon from '@mui/icons-material/CloudUploadOutlined';
import Button from '@mui/material/Button';
import { lazy, Suspense, useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { pickedFromInput, type PickedFile } from './picked-files.ts';

const UploadMenu = lazy(() => import('./UploadMenu.tsx').then((m) => ({ default: m.UploadMenu })));

export interface UploadButtonProps {
  onFiles: (files: PickedFile[]) => void;
}

export function UploadButton({ onFiles }: UploadButtonProps) {
  const { t } = useTranslation('photos');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Mounted from the first press on, so that closing can animate and focus can return to the button.
  const [mounted, setMounted] = useState(false);
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const buttonId = useId();
  const menuId = useId();
  const open = anchor !== null;

  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    const files = pickedFromInput(event.currentTarget.files ?? []);
    // Emptied, so that picking the same files again is a change too.
    event.currentTarget.value = '';
    if (files.length > 0) onFiles(files);
  };

  // A menu button (the ARIA pattern): it names the menu it controls while that is open.
  const menuButton = {
    id: buttonId,
    'aria-haspopup': 'menu',
    'aria-controls': open ? menuId : undefined,
    'aria-expanded': open || undefined,
  } as const;
  return (
    <>
      <Button
        {...menuButton}
        variant="contained"
        startIcon={<UploadIcon />}
        onClick={(event) => {
          setAnchor(event.currentTarget);
          setMounted(true);
        }}
      >
        {t('layout.upload')}
      </Button>
      <input ref={filesInput} type="file" multiple hidden onChange={picked} data-testid="upload-files-input" />
      <input
        ref={folderInput}
        type="file"
        hidden
        onChange={picked}
        data-testid="upload-folder-input"
        // Not in React's types; the browsers that support folders take it (an empty value turns it on).
        {...{ webkitdirectory: '', directory: '' }}
      />
      {mounted && (
        <Suspense fallback={null}>
          <UploadMenu
            anchor={anchor}
            buttonId={buttonId}
            menuId={menuId}
            onClose={() => setAnchor(null)}
            onPickFiles={() => filesInput.current?.click()}
            onPickFolder={() => folderInput.current?.click()}
          />
        </Suspense>
      )}
    </>
  );
}
