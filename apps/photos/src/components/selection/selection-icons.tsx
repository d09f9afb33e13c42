// The icons of the selection bar's actions, part of the toolbar SelectionBar.tsx fetches the first time something is
// selected: a view that opens without a selection (a shared album's grid) does not load them. Keyed by action.
import DeleteForeverIcon from '@mui/icons-material/DeleteForeverOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import MoveIcon from '@mui/icons-material/DriveFileMoveOutlined';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import AddToAlbumIcon from '@mui/icons-material/LibraryAddOutlined';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutlineOutlined';
import RestoreIcon from '@mui/icons-material/RestoreFromTrashOutlined';
import SlideshowIcon from '@mui/icons-material/SlideshowOutlined';

export const selectionIcons = {
  addToAlbum: <AddToAlbumIcon />,
  moveToAlbum: <MoveIcon />,
  removeFromAlbum: <RemoveIcon />,
  download: <DownloadIcon />,
  slideshow: <SlideshowIcon />,
  trash: <DeleteIcon />,
  restore: <RestoreIcon />,
  deleteForever: <DeleteForeverIcon />,
};

export type SelectionIcons = typeof selectionIcons;
