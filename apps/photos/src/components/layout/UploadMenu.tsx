// The menu of the Upload button (UploadButton.tsx), fetched on its first press.
import FolderIcon from '@mui/icons-material/FolderOutlined';
import FileIcon from '@mui/icons-material/InsertDriveFileOutlined';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useTranslation } from 'react-i18next';

export interface UploadMenuProps {
  anchor: HTMLElement | null;
  buttonId: string;
  menuId: string;
  onClose: () => void;
  onPickFiles: () => void;
  onPickFolder: () => void;
}

export function UploadMenu({ anchor, buttonId, menuId, onClose, onPickFiles, onPickFolder }: UploadMenuProps) {
  const { t } = useTranslation('photos');
  // The picker opens from the click itself (browsers allow it only during a user's gesture).
  const choose = (pick: () => void) => () => {
    onClose();
    pick();
  };
  return (
    <Menu
      id={menuId}
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{ list: { 'aria-labelledby': buttonId } }}
    >
      <MenuItem onClick={choose(onPickFiles)}>
        <ListItemIcon>
          <FileIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText>{t('layout.upload_files')}</ListItemText>
      </MenuItem>
      <MenuItem onClick={choose(onPickFolder)}>
        <ListItemIcon>
          <FolderIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText>{t('layout.upload_folder')}</ListItemText>
      </MenuItem>
    </Menu>
  );
}
