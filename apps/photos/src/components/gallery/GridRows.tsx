// The rows of the gallery grid (GalleryGrid.tsx): a day's header (its heading, and a checkbox that selects the
// whole day while the grid selects) and a row of cells (a button per file, with its checkbox). Memoized: a
// scroll renders only the rows that come into view, a selection change only the rows it touches.
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import UncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Typography from '@mui/material/Typography';
import { memo, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';

import type { GalleryFile } from '../../library/types.ts';
import type { GridSelectionHandlers } from '../selection/use-grid-selection.ts';
import type { Day, GridRow } from './grid-model.ts';
import { FileTypeBadge, type ThumbnailProps } from './Thumbnail.tsx';

/** Space between cells, px. */
export const gap = 4;
/** Height of a day's header row, px. */
export const headerHeight = 48;

/**
 * Where a row sits: its offset from the grid's top and its height, px. Numbers, not a style object, so that a
 * scroll re-renders no row that stays where it was.
 */
export interface RowPlace {
  top: number;
  height: number;
}

const placed = ({ top, height }: RowPlace) => ({ height, transform: `translateY(${top}px)` });

const rowSx = { position: 'absolute', top: 0, left: 0, width: '100%' } as const;

export interface DayHeaderProps extends RowPlace {
  day: Day;
  rowIndex: number;
  label: string;
  /** Undefined while the grid does not select; else whether all, some or none of the day is selected. */
  checked: 'all' | 'some' | 'none' | undefined;
  handlers: GridSelectionHandlers;
}

export const DayHeader = memo(function DayHeader(props: DayHeaderProps) {
  const { day, rowIndex, label, checked, handlers } = props;
  const { t } = useTranslation('photos');
  return (
    <Box role="row" aria-rowindex={rowIndex + 1} data-day={day.key} sx={rowSx} style={placed(props)}>
      <Box role="gridcell" sx={{ display: 'flex', alignItems: 'flex-end', gap: 0.5, height: '100%', pb: 0.5 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, pb: 0.5 }}>
          {label}
        </Typography>
        {checked !== undefined && (
          <Checkbox
            size="small"
            checked={checked === 'all'}
            indeterminate={checked === 'some'}
            onChange={() => handlers.toggleDay(day.files)}
            slotProps={{ input: { 'aria-label': t('selection.select_day', { day: label }) } }}
          />
        )}
      </Box>
    </Box>
  );
});

export interface CellsRowProps extends RowPlace {
  row: Extract<GridRow, { kind: 'cells' }>;
  rowIndex: number;
  cellSize: number;
  /** The column of the focused file when it is in this row, else -1. */
  activeColumn: number;
  /** Undefined while the grid does not select; else the selected ids. */
  selected: ReadonlySet<number> | undefined;
  /** Whether anything is selected (the checkboxes then always show). */
  selecting: boolean;
  Thumbnail: ComponentType<ThumbnailProps>;
  handlers: GridSelectionHandlers;
}

export const CellsRow = memo(function CellsRow(props: CellsRowProps) {
  const { row, rowIndex, cellSize, activeColumn, selected, selecting, Thumbnail, handlers } = props;
  return (
    <Box
      role="row"
      aria-rowindex={rowIndex + 1}
      sx={{ ...rowSx, display: 'flex', gap: `${gap}px` }}
      style={placed(props)}
    >
      {row.files.map((file, column) => (
        <Cell
          key={file.id}
          file={file}
          column={column}
          size={cellSize}
          active={column === activeColumn}
          selected={selected === undefined ? undefined : selected.has(file.id)}
          selecting={selecting}
          Thumbnail={Thumbnail}
          handlers={handlers}
        />
      ))}
    </Box>
  );
});

interface CellProps {
  file: GalleryFile;
  column: number;
  size: number;
  active: boolean;
  selected: boolean | undefined;
  selecting: boolean;
  Thumbnail: ComponentType<ThumbnailProps>;
  handlers: GridSelectionHandlers;
}

const Cell = memo(function Cell({ file, column, size, active, selected, selecting, Thumbnail, handlers }: CellProps) {
  const { t } = useTranslation('photos');
  const title = file.metadata.title || t('grid.untitled');
  return (
    <Box
      role="gridcell"
      aria-colindex={column + 1}
      aria-selected={selected}
      data-file-id={file.id}
      sx={{
        position: 'relative',
        width: size,
        height: size,
        flex: 'none',
        '&:hover .cell-check, &:focus-within .cell-check': { opacity: 1 },
      }}
    >
      <Box
        component="button"
        type="button"
        data-file-id={file.id}
        tabIndex={active ? 0 : -1}
        onClick={handlers.click}
        onPointerDown={handlers.pointerDown}
        onPointerMove={handlers.pointerMove}
        onPointerUp={handlers.pointerEnd}
        onPointerCancel={handlers.pointerEnd}
        onContextMenu={handlers.contextMenu}
        sx={{
          position: 'relative',
          display: 'block',
          width: '100%',
          height: '100%',
          p: 0,
          border: 0,
          borderRadius: 1,
          overflow: 'hidden',
          cursor: 'pointer',
          bgcolor: 'transparent',
          color: 'inherit',
          transition: 'transform 120ms',
          transform: selected ? 'scale(0.88)' : undefined,
          WebkitTouchCallout: 'none',
          userSelect: 'none',
          '&:focus-visible': { outline: '3px solid', outlineColor: 'primary.main', outlineOffset: -3 },
        }}
      >
        <Thumbnail file={file} alt={title} />
        <FileTypeBadge fileType={file.metadata.fileType} />
      </Box>
      {selected !== undefined && (
        <Checkbox
          className="cell-check"
          size="small"
          checked={selected}
          // The grid's keys select (Space): one tab stop per cell, the button.
          tabIndex={-1}
          onChange={(event) => handlers.check(file.id, (event.nativeEvent as MouseEvent).shiftKey)}
          icon={<UncheckedIcon sx={{ filter: 'drop-shadow(0 0 2px rgba(0, 0, 0, 0.8))' }} />}
          checkedIcon={<CheckCircleIcon />}
          slotProps={{ input: { 'aria-label': t('selection.select', { title }), tabIndex: -1 } }}
          sx={{
            position: 'absolute',
            top: 2,
            left: 2,
            p: 0.5,
            color: 'common.white',
            opacity: selecting || selected ? 1 : 0,
            '&.Mui-checked': { color: 'primary.main' },
            '@media (hover: none)': { opacity: selecting ? 1 : 0 },
          }}
        />
      )}
    </Box>
  );
});
