// The list of albums: a card per album (its cover, the newest file's thumbnail; its name; how many items), the
// order (by name or newest first) and a menu per album: rename, share or delete one the person owns (not their
// "uncategorized" or "favorites" album, which the server keeps), leave one shared with them. A card
// is a button that opens the album; the menu's button sits beside it. Not virtualized: a library has tens or
// hundreds of albums, not tens of thousands.
import AddIcon from '@mui/icons-material/Add';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import PhotoAlbumIcon from '@mui/icons-material/PhotoAlbumOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useId, useMemo, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';

import { currentLocale } from '@ente/shared/i18n/i18n.ts';

import type { Album } from '../../library/types.ts';
import { PlaceholderThumbnail, type ThumbnailProps } from '../gallery/Thumbnail.tsx';
import { sortAlbums, type AlbumSort, type AlbumSummary } from './album-summaries.ts';
import { useAlbumTitle } from './album-title.ts';

export interface AlbumListProps {
  /** The albums with their counts and covers (`albumSummaries`), in any order. */
  albums: readonly AlbumSummary[];
  /** The order it starts in (newest first unless given); the person changes it with the list's buttons. */
  initialSort?: AlbumSort;
  /** Draws a cover (the grid's thumbnail component); a placeholder unless given. */
  Thumbnail?: ComponentType<ThumbnailProps>;
  onOpen: (album: Album) => void;
  /** Offers "New album" when given. */
  onCreate?: () => void;
  /** Offered in the menu of the albums the person owns, when given. */
  onRename?: (album: Album) => void;
  onShare?: (album: Album) => void;
  onDelete?: (album: Album) => void;
  /** Offered in the menu of the albums shared with the person, when given. */
  onLeave?: (album: Album) => void;
  /** "Play on a screen", offered on every album (owned or shared), when given. */
  onCast?: (album: Album) => void;
}

export function AlbumList(props: AlbumListProps) {
  const { albums, initialSort = 'newest', Thumbnail = PlaceholderThumbnail, onOpen, onCreate } = props;
  const [sort, setSort] = useState(initialSort);
  const { t } = useTranslation('photos');
  const sortLabelId = useId();
  const [menu, setMenu] = useState<{ album: Album; anchor: HTMLElement }>();
  const title = useAlbumTitle();
  // By the names shown: "uncategorized" and "favorites" by their translated ones.
  const sorted = useMemo(() => sortAlbums(albums, sort, currentLocale(), title), [albums, sort, title]);
  const hasMenu = (album: Album) => menuActions(album, props).length > 0;
  // Each entry of the menu closes it, then acts on its album.
  const entry = (label: string, action: ((album: Album) => void) | undefined, danger = false) =>
    action && (
      <MenuItem
        key={label}
        onClick={() => {
          setMenu(undefined);
          if (menu) action(menu.album);
        }}
        sx={danger ? { color: 'error.main' } : undefined}
      >
        {label}
      </MenuItem>
    );

  return (
    <Box component="section" aria-label={t('albums.label')}>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        <Typography id={sortLabelId} variant="body2" sx={{ color: 'text.secondary' }}>
          {t('albums.sort_label')}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={sort}
          aria-labelledby={sortLabelId}
          onChange={(_, value: AlbumSort | null) => value && setSort(value)}
        >
          <ToggleButton value="name">{t('albums.sort_name')}</ToggleButton>
          <ToggleButton value="newest">{t('albums.sort_newest')}</ToggleButton>
        </ToggleButtonGroup>
        {onCreate && (
          <Button startIcon={<AddIcon />} onClick={onCreate} sx={{ ml: 'auto' }}>
            {t('albums.create')}
          </Button>
        )}
      </Box>
      {sorted.length === 0 ? (
        <Typography sx={{ color: 'text.secondary', py: 4, textAlign: 'center' }}>{t('albums.empty')}</Typography>
      ) : (
        <Box
          component="ul"
          sx={{
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fill, minmax(160px, 1fr))',
            gap: 2,
            m: 0,
            p: 0,
            listStyle: 'none',
          }}
        >
          {sorted.map((summary) => (
            <AlbumCard
              key={summary.album.id}
              summary={summary}
              Thumbnail={Thumbnail}
              onOpen={onOpen}
              onMenu={hasMenu(summary.album) ? (anchor) => setMenu({ album: summary.album, anchor }) : undefined}
            />
          ))}
        </Box>
      )}
      <Menu anchorEl={menu?.anchor} open={menu !== undefined} onClose={() => setMenu(undefined)}>
        {menu &&
          menuActions(menu.album, props).map(([name, action]) =>
            entry(t(menuLabels[name]), action, name === 'delete' || name === 'leave'),
          )}
      </Menu>
    </Box>
  );
}

type MenuAction = 'rename' | 'share' | 'cast' | 'delete' | 'leave';

const menuLabels = {
  rename: 'albums.rename',
  share: 'share.open',
  cast: 'cast.open',
  delete: 'albums.delete',
  leave: 'share.leave',
} as const satisfies Record<MenuAction, string>;

/** The actions the menu of `album` offers, in order: those given that apply to it. */
function menuActions(album: Album, props: AlbumListProps): [MenuAction, (album: Album) => void][] {
  // The server neither deletes nor shares an "uncategorized" album (where uploads without an album go), and
  // deletes no "favorites"; both show under the names Ente's clients give them, so a rename would not show there.
  const special = album.type === 'uncategorized' || album.type === 'favorites';
  const offered: [MenuAction, ((album: Album) => void) | undefined][] =
    album.role === 'OWNER'
      ? [
          ['rename', special ? undefined : props.onRename],
          ['share', album.type === 'uncategorized' ? undefined : props.onShare],
          ['cast', props.onCast],
          ['delete', special ? undefined : props.onDelete],
        ]
      : [
          ['cast', props.onCast],
          ['leave', props.onLeave],
        ];
  return offered.filter((item): item is [MenuAction, (album: Album) => void] => item[1] !== undefined);
}

function AlbumCard({
  summary,
  Thumbnail,
  onOpen,
  onMenu,
}: {
  summary: AlbumSummary;
  Thumbnail: ComponentType<ThumbnailProps>;
  onOpen: (album: Album) => void;
  onMenu: ((anchor: HTMLElement) => void) | undefined;
}) {
  const { t } = useTranslation('photos');
  const title = useAlbumTitle();
  const { album, count, cover } = summary;
  const name = title(album);
  const sharedBy = album.role !== 'OWNER' ? album.owner.email : undefined;
  return (
    <Box component="li" sx={{ position: 'relative' }}>
      <Box
        component="button"
        type="button"
        onClick={() => onOpen(album)}
        sx={{
          display: 'block',
          width: '100%',
          p: 0,
          border: 0,
          bgcolor: 'transparent',
          color: 'inherit',
          textAlign: 'left',
          cursor: 'pointer',
          font: 'inherit',
          borderRadius: 2,
          '&:focus-visible': { outline: '3px solid', outlineColor: 'primary.main', outlineOffset: 2 },
        }}
      >
        <Box
          aria-hidden
          sx={{
            aspectRatio: '1',
            borderRadius: 2,
            overflow: 'hidden',
            bgcolor: 'action.hover',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
          }}
        >
          {cover ? <Thumbnail file={cover} alt="" /> : <PhotoAlbumIcon sx={{ fontSize: 48, color: 'text.disabled' }} />}
        </Box>
        <Typography component="span" sx={{ display: 'block', mt: 1, fontWeight: 600, overflowWrap: 'anywhere' }}>
          {name}
        </Typography>
        <Typography component="span" variant="body2" sx={{ display: 'block', color: 'text.secondary' }}>
          {t('albums.count', { count })}
        </Typography>
        {sharedBy && (
          <Typography
            component="span"
            variant="body2"
            sx={{ display: 'block', color: 'text.secondary', overflowWrap: 'anywhere' }}
          >
            {t('albums.shared_by', { email: sharedBy })}
          </Typography>
        )}
      </Box>
      {onMenu && (
        <IconButton
          aria-label={t('albums.actions', { name })}
          aria-haspopup="menu"
          onClick={(event) => onMenu(event.currentTarget)}
          size="small"
          sx={{
            position: 'absolute',
            top: 6,
            right: 6,
            bgcolor: 'rgba(0, 0, 0, 0.45)',
            color: 'common.white',
            '&:hover': { bgcolor: 'rgba(0, 0, 0, 0.65)' },
          }}
        >
          <MoreVertIcon fontSize="small" />
        </IconButton>
      )}
    </Box>
  );
}
