// The controls above the list: search (focused by `/`, cleared by Esc), sort, the display options
// (compact cards, hidden codes, the idle lock), "Add code", the tag chips and the trash toggle. The
// search, sort and chips show only when there are codes to find.
import AddIcon from '@mui/icons-material/Add';
import CheckIcon from '@mui/icons-material/Check';
import DeleteIcon from '@mui/icons-material/Delete';
import ImportExportIcon from '@mui/icons-material/ImportExport';
import SearchIcon from '@mui/icons-material/Search';
import SortIcon from '@mui/icons-material/Sort';
import TuneIcon from '@mui/icons-material/Tune';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import OutlinedInput from '@mui/material/OutlinedInput';
import Popover from '@mui/material/Popover';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useId, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';

import { sortModes, type DisplayOptions, type SortMode } from '../../services/display-options.ts';
import { IdleLockSetting } from '../lock/IdleLockSetting.tsx';
import { UserText } from '../UserText.tsx';

export interface ListToolbarProps {
  /** Whether there are codes outside the trash (search, sort and chips show only then). */
  hasCodes: boolean;
  query: string;
  onQueryChange: (query: string) => void;
  searchRef: Ref<HTMLInputElement>;
  options: DisplayOptions;
  onOptionsChange: (options: DisplayOptions) => void;
  editable: boolean;
  onAdd: () => void;
  /** Opens the import dialog (editable vaults only). */
  onImport: () => void;
  /** Opens the export dialog; absent while there is nothing to export. */
  onExport?: () => void;
}

export function ListToolbar(props: ListToolbarProps) {
  const { hasCodes, query, onQueryChange, searchRef, options, onOptionsChange, editable, onAdd, onImport, onExport } =
    props;
  const { t } = useTranslation('codes');
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 2 }}>
      {hasCodes && (
        <OutlinedInput
          inputRef={searchRef}
          type="search"
          size="small"
          value={query}
          onChange={(event) => onQueryChange(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && query) {
              event.preventDefault();
              event.stopPropagation();
              onQueryChange('');
            }
          }}
          placeholder={t('list.searchPlaceholder')}
          startAdornment={
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          }
          inputProps={{ 'aria-label': t('list.search'), 'aria-keyshortcuts': '/' }}
          sx={{ flex: '1 1 220px', minWidth: 0 }}
        />
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, ml: 'auto' }}>
        {hasCodes && <SortButton sort={options.sort} onChange={(sort) => onOptionsChange({ ...options, sort })} />}
        <OptionsButton options={options} onChange={onOptionsChange} />
        <TransferButton editable={editable} onImport={onImport} onExport={onExport} />
        <Button variant="contained" startIcon={<AddIcon />} disabled={!editable} onClick={onAdd} aria-keyshortcuts="a">
          {t('list.add')}
        </Button>
      </Box>
    </Box>
  );
}

/** Import and export, in one menu. */
function TransferButton({
  editable,
  onImport,
  onExport,
}: Pick<ListToolbarProps, 'editable' | 'onImport' | 'onExport'>) {
  const { t } = useTranslation('codes');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const buttonID = useId();
  const menuID = useId();
  const choose = (action: (() => void) | undefined) => () => {
    setAnchor(null);
    action?.();
  };
  return (
    <>
      <IconButton
        id={buttonID}
        aria-label={t('list.transfer')}
        aria-haspopup="menu"
        aria-controls={anchor ? menuID : undefined}
        aria-expanded={anchor ? true : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <ImportExportIcon />
      </IconButton>
      <Menu
        id={menuID}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-labelledby': buttonID, dense: true } }}
      >
        <MenuItem disabled={!editable} onClick={choose(onImport)}>
          {t('list.import')}
        </MenuItem>
        <MenuItem disabled={!onExport} onClick={choose(onExport)}>
          {t('list.export')}
        </MenuItem>
      </Menu>
    </>
  );
}

const sortLabels = {
  issuer: 'list.sortIssuer',
  account: 'list.sortAccount',
  recent: 'list.sortRecent',
  manual: 'list.sortManual',
} as const;

function SortButton({ sort, onChange }: { sort: SortMode; onChange: (sort: SortMode) => void }) {
  const { t } = useTranslation('codes');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const buttonID = useId();
  const menuID = useId();
  return (
    <>
      <Button
        id={buttonID}
        color="inherit"
        startIcon={<SortIcon />}
        aria-haspopup="menu"
        aria-controls={anchor ? menuID : undefined}
        aria-expanded={anchor ? true : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {t('list.sortBy', { order: t(sortLabels[sort]) })}
      </Button>
      <Menu
        id={menuID}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-labelledby': buttonID, dense: true } }}
      >
        {sortModes.map((mode) => (
          <MenuItem
            key={mode}
            role="menuitemradio"
            aria-checked={mode === sort}
            selected={mode === sort}
            onClick={() => {
              setAnchor(null);
              onChange(mode);
            }}
          >
            <ListItemIcon>{mode === sort && <CheckIcon fontSize="small" />}</ListItemIcon>
            <ListItemText>{t(sortLabels[mode])}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

function OptionsButton({
  options,
  onChange,
}: {
  options: DisplayOptions;
  onChange: (options: DisplayOptions) => void;
}) {
  const { t } = useTranslation('codes');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const titleID = useId();
  return (
    <>
      <IconButton
        aria-label={t('list.displayOptions')}
        aria-haspopup="dialog"
        aria-expanded={anchor ? true : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <TuneIcon />
      </IconButton>
      <Popover
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { role: 'dialog', 'aria-labelledby': titleID, sx: { p: 2, minWidth: 260 } } }}
      >
        <Typography id={titleID} variant="subtitle2" component="h2" sx={{ mb: 1 }}>
          {t('list.displayOptions')}
        </Typography>
        <Box sx={{ display: 'flex', flexDirection: 'column' }}>
          <FormControlLabel
            control={
              <Switch
                checked={options.compact}
                onChange={(event) => onChange({ ...options, compact: event.target.checked })}
              />
            }
            label={t('list.compact')}
          />
          <FormControlLabel
            control={
              <Switch
                checked={options.hideCodes}
                onChange={(event) => onChange({ ...options, hideCodes: event.target.checked })}
              />
            }
            label={t('list.hideCodes')}
          />
          <Box sx={{ mt: 1 }}>
            <IdleLockSetting />
          </Box>
        </Box>
      </Popover>
    </>
  );
}

export interface TagFilterProps {
  tags: readonly string[];
  selected: readonly string[];
  onChange: (selected: string[]) => void;
  trashCount: number;
  view: 'codes' | 'trash';
  onViewChange: (view: 'codes' | 'trash') => void;
  /** Whether there are codes outside the trash (the chips show only then). */
  hasCodes: boolean;
  /** Opens "Manage tags" (absent while editing is off). */
  onManageTags?: () => void;
}

/** How many tag chips the bar shows before "More tags" (chosen ones always show). */
export const tagsInBar = 10;

/**
 * The tag chips (several chosen: a code must carry all of them) and the trash toggle. Past `tagsInBar`
 * tags, the rest wait behind "More tags (n)", which shows them all (and then offers "Fewer tags").
 */
export function TagFilter({
  tags,
  selected,
  onChange,
  trashCount,
  view,
  onViewChange,
  hasCodes,
  onManageTags,
}: TagFilterProps) {
  const { t } = useTranslation('codes');
  const [allShown, setAllShown] = useState(false);
  const groupId = useId();
  const showTags = hasCodes && view === 'codes' && tags.length > 0;
  const shownTags =
    allShown || tags.length <= tagsInBar
      ? tags
      : tags.filter((tag, index) => index < tagsInBar || selected.includes(tag));
  const showTrash = trashCount > 0 || view === 'trash';
  if (!showTags && !showTrash) return null;
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, mb: 2 }}>
      {showTags && (
        <Box
          id={groupId}
          role="group"
          aria-label={t('list.filterByTag')}
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, flex: 1 }}
        >
          {shownTags.map((tag) => {
            const on = selected.includes(tag);
            return (
              <Chip
                key={tag}
                label={<UserText text={tag} />}
                size="small"
                color={on ? 'primary' : 'default'}
                variant={on ? 'filled' : 'outlined'}
                aria-pressed={on}
                onClick={() => onChange(on ? selected.filter((other) => other !== tag) : [...selected, tag])}
              />
            );
          })}
          {tags.length > tagsInBar && (
            <Button
              size="small"
              color="inherit"
              aria-expanded={allShown}
              aria-controls={groupId}
              onClick={() => setAllShown(!allShown)}
              sx={{ py: 0 }}
            >
              {allShown ? t('list.fewerTags') : t('list.moreTags', { count: tags.length - shownTags.length })}
            </Button>
          )}
          {selected.length > 0 && (
            <Chip label={t('list.clearTags')} size="small" variant="outlined" onClick={() => onChange([])} />
          )}
          {onManageTags && (
            <Button size="small" color="inherit" onClick={onManageTags} sx={{ py: 0 }}>
              {t('editor.tags_title')}
            </Button>
          )}
        </Box>
      )}
      {showTrash && (
        <Button
          size="small"
          color="inherit"
          startIcon={<DeleteIcon />}
          aria-pressed={view === 'trash'}
          onClick={() => onViewChange(view === 'trash' ? 'codes' : 'trash')}
          sx={{ ml: 'auto', flexShrink: 0 }}
        >
          {t('list.trashCount', { n: trashCount })}
        </Button>
      )}
    </Box>
  );
}
