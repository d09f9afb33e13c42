// The menu of the Upload button (UploadButton.tsx), fetched on its first press: files, or a folder.
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
  const choose = (pick: () => void) => {
    onClose();
    pick();
  };
  const choices = [
    { key: 'files', Icon: FileIcon, label: t('layout.upload_files'), pick: onPickFiles },
    { key: 'folder', Icon: FolderIcon, label: t('layout.upload_folder'), pick: onPickFolder },
  ];
  return (
    <Menu
      id={menuId}
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
      slotProps={{ list: { 'aria-labelledby': buttonId } }}
    >
      {choices.map(({ key, Icon, label, pick }) => (
        <MenuItem key={key} onClick={() => choose(pick)}>
          <ListItemIcon>
            <Icon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{label}</ListItemText>
        </MenuItem>
      ))}
    </Menu>
  );
}
