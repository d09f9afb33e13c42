// The actions of one card, in a menu opened from the card's "⋮" button (or the context-menu key /
// Shift+F10 on a focused card). One menu serves the whole list. Editing actions are disabled while
// the vault is read-only (offline, locked); copying and showing the QR code still work.
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import PushPinIcon from '@mui/icons-material/PushPin';
import QrCodeIcon from '@mui/icons-material/QrCode';
import ShareIcon from '@mui/icons-material/Share';
import SkipNextIcon from '@mui/icons-material/SkipNext';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { canShare } from '../../services/share.ts';
import type { Code } from '../../services/types.ts';
import { visibleText } from '../../services/visible-text.ts';

export type CardMenuAction =
  'copyNext' | 'edit' | 'pin' | 'showQR' | 'share' | 'advance' | 'moveUp' | 'moveDown' | 'trash';

export interface CardMenuProps {
  /** The card whose menu is open, and its button. */
  target: { code: Code; anchor: HTMLElement } | undefined;
  editable: boolean;
  /** Whether the code can move up / down in manual order (undefined: not in manual order). */
  canMove?: { up: boolean; down: boolean };
  onAction: (action: CardMenuAction, code: Code) => void;
  onClose: () => void;
}

export function CardMenu({ target, editable, canMove, onAction, onClose }: CardMenuProps) {
  const { t } = useTranslation('codes');
  const code = target?.code;
  const item = (action: CardMenuAction, icon: ReactNode, text: string, disabled = false) => (
    <MenuItem
      key={action}
      disabled={disabled}
      onClick={() => {
        onClose();
        if (code) onAction(action, code);
      }}
    >
      <ListItemIcon>{icon}</ListItemIcon>
      <ListItemText>{text}</ListItemText>
    </MenuItem>
  );
  const shareable = code !== undefined && canShare(code);
  return (
    <Menu
      anchorEl={target?.anchor ?? null}
      open={target !== undefined}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{
        list: {
          'aria-label': code ? t('list.actionsFor', { name: visibleText(code.issuer || code.account) }) : undefined,
          dense: true,
        },
      }}
    >
      {code && [
        item('copyNext', <ContentCopyIcon fontSize="small" />, t('list.copyNext')),
        item('edit', <EditIcon fontSize="small" />, t('list.edit'), !editable),
        item('pin', <PushPinIcon fontSize="small" />, code.display.pinned ? t('list.unpin') : t('list.pin'), !editable),
        item('showQR', <QrCodeIcon fontSize="small" />, t('list.showQR')),
        ...(shareable ? [item('share', <ShareIcon fontSize="small" />, t('list.share'), !editable)] : []),
        ...(code.type === 'hotp'
          ? [item('advance', <SkipNextIcon fontSize="small" />, t('list.advanceCounter'), !editable)]
          : []),
        ...(canMove
          ? [
              item('moveUp', <ArrowUpwardIcon fontSize="small" />, t('list.moveUp'), !editable || !canMove.up),
              item('moveDown', <ArrowDownwardIcon fontSize="small" />, t('list.moveDown'), !editable || !canMove.down),
            ]
          : []),
        <Divider key="divider" />,
        item('trash', <DeleteIcon fontSize="small" />, t('list.moveToTrash'), !editable),
      ]}
    </Menu>
  );
}
