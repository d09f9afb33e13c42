// The rows of the gallery grid (GalleryGrid.tsx): a day's header (its heading, and a checkbox that selects the
// whole day while the grid selects) and a row of cells (a button per file, with its checkbox). Memoized: a
// scroll renders only the rows that come into view, a selection change only the rows it touches. Plain elements
// styled by class names from the grid's element (see [Note: Plain cells]), their words from the grid (`RowLabels`:
// no translation hook mounts with each row).
import { memo, type ComponentType } from 'react';

import { FileType, type GalleryFile } from '../../library/types.ts';
import { CheckedGlyph, NotSelectedGlyph, PartlyCheckedGlyph, SelectedGlyph, UncheckedGlyph } from '../glyphs.tsx';
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

// Each row's width and height are its own (the grid's width, its place's height), so its layout and paint are
// contained: a row coming into view is laid out and painted alone, not with the rows around it.
const rowSx = { position: 'absolute', top: 0, left: 0, width: '100%', contain: 'strict' } as const;

/** The words of the rows, made once by the grid for its language (the same object while it stays). */
export interface RowLabels {
  /** A cell's name when the file has no title. */
  untitled: string;
  /** A cell's checkbox name. */
  select(title: string): string;
  /** A day's checkbox name. */
  selectDay(day: string): string;
  /** The badges of videos and live photos (FileTypeBadge). */
  video: string;
  livePhoto: string;
}

export interface DayHeaderProps extends RowPlace {
  day: Day;
  rowIndex: number;
  label: string;
  labels: RowLabels;
  /** Undefined while the grid does not select; else whether all, some or none of the day is selected. */
  checked: 'all' | 'some' | 'none' | undefined;
  handlers: GridSelectionHandlers;
}

export const DayHeader = memo(function DayHeader(props: DayHeaderProps) {
  const { day, rowIndex, label, labels, checked, handlers } = props;
  return (
    <div role="row" aria-rowindex={rowIndex + 1} data-day={day.key} className="gallery-day" style={placed(props)}>
      <div role="gridcell" className="gallery-day-cell">
        <h2>{label}</h2>
        {checked !== undefined && (
          <span className={`day-check${checked === 'none' ? '' : ' checked'}`}>
            <input
              type="checkbox"
              checked={checked === 'all'}
              data-indeterminate={checked === 'some'}
              ref={(input) => {
                if (input) input.indeterminate = checked === 'some';
              }}
              aria-label={labels.selectDay(label)}
              onChange={() => handlers.toggleDay(day.files)}
            />
            {checked === 'all' ? (
              <CheckedGlyph size="small" />
            ) : checked === 'some' ? (
              <PartlyCheckedGlyph size="small" />
            ) : (
              <UncheckedGlyph size="small" />
            )}
          </span>
        )}
      </div>
    </div>
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
  labels: RowLabels;
}

// [Note: Plain cells]
// A scroll mounts a row of cells every few frames, so a cell is plain elements under class names whose styles the
// grid sets once (`cellStyles`, on the grid's element), not components that work out styles each time they mount
// (an `sx` box, a Checkbox with its ripple): that work, a few rows a second, was what made frames late. The cell's
// checkbox and the day's are native ones under the same icons as before, with the same names and the same keys.

/** The styles of the cells, by class name, set once on the grid's element (see [Note: Plain cells]). */
export const cellStyles = {
  '& .gallery-day': rowSx,
  '& .gallery-day-cell': { display: 'flex', alignItems: 'flex-end', gap: 0.5, height: '100%', pb: 0.5 },
  '& .gallery-day h2': { typography: 'subtitle1', fontWeight: 600, m: 0, pb: 0.5 },
  '& .gallery-row': { ...rowSx, display: 'flex', gap: `${gap}px` },
  '& .gallery-cell': {
    position: 'relative',
    flex: 'none',
    '&:hover .cell-check, &:focus-within .cell-check': { opacity: 1 },
  },
  '& .gallery-cell-button': {
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
    WebkitTouchCallout: 'none',
    userSelect: 'none',
    '&:focus-visible': { outline: '3px solid', outlineColor: 'primary.main', outlineOffset: -3 },
  },
  '& .gallery-cell-button.selected': { transform: 'scale(0.88)' },
  '& .gallery-badge': {
    position: 'absolute',
    top: 6,
    right: 6,
    display: 'flex',
    color: 'common.white',
    filter: 'drop-shadow(0 0 2px rgba(0, 0, 0, 0.8))',
    pointerEvents: 'none',
  },
  // The day's checkbox, as MUI's small Checkbox looks (its focus and hover rings are the native input's outline).
  '& .day-check': {
    position: 'relative',
    display: 'inline-flex',
    p: '9px',
    borderRadius: '50%',
    color: 'text.secondary',
    '&.checked': { color: 'primary.main' },
    '&:hover': { bgcolor: 'action.hover' },
    '&:has(input:focus-visible)': { outline: '2px solid', outlineColor: 'primary.main' },
    '& input': { position: 'absolute', inset: 0, width: '100%', height: '100%', m: 0, opacity: 0, cursor: 'pointer' },
    '& svg': { pointerEvents: 'none' },
  },
  '& .cell-check': {
    position: 'absolute',
    top: 2,
    left: 2,
    display: 'inline-flex',
    p: 0.5,
    borderRadius: '50%',
    color: 'common.white',
    opacity: 0,
    '&.shown': { opacity: 1 },
    '@media (hover: none)': { opacity: 0, '&.selecting': { opacity: 1 } },
    '&.checked': { color: 'primary.main' },
    '& input': { position: 'absolute', inset: 0, width: '100%', height: '100%', m: 0, opacity: 0, cursor: 'pointer' },
    '& svg': { pointerEvents: 'none' },
    '&:not(.checked) svg': { filter: 'drop-shadow(0 0 2px rgba(0, 0, 0, 0.8))' },
  },
} as const;

export const CellsRow = memo(function CellsRow(props: CellsRowProps) {
  const { row, rowIndex, cellSize, activeColumn, selected, selecting, Thumbnail, handlers, labels } = props;
  return (
    <div role="row" aria-rowindex={rowIndex + 1} className="gallery-row" style={placed(props)}>
      {row.files.map((file, column) => {
        const title = file.metadata.title || labels.untitled;
        return (
          <Cell
            key={file.id}
            file={file}
            title={title}
            column={column}
            size={cellSize}
            active={column === activeColumn}
            selected={selected === undefined ? undefined : selected.has(file.id)}
            selecting={selecting}
            Thumbnail={Thumbnail}
            handlers={handlers}
            selectLabel={labels.select(title)}
            badge={badgeOf(file.metadata.fileType, labels)}
          />
        );
      })}
    </div>
  );
});

interface CellProps {
  file: GalleryFile;
  title: string;
  column: number;
  size: number;
  active: boolean;
  selected: boolean | undefined;
  selecting: boolean;
  Thumbnail: ComponentType<ThumbnailProps>;
  handlers: GridSelectionHandlers;
  /** The checkbox's name. */
  selectLabel: string;
  /** The badge's words for a video or a live photo, else undefined (no badge). */
  badge: string | undefined;
}

const Cell = memo(function Cell(props: CellProps) {
  const { file, title, column, size, active, selected, selecting, Thumbnail, handlers, selectLabel, badge } = props;
  return (
    <div
      role="gridcell"
      aria-colindex={column + 1}
      aria-selected={selected}
      data-file-id={file.id}
      className="gallery-cell"
      style={{ width: size, height: size }}
    >
      <button
        type="button"
        data-file-id={file.id}
        tabIndex={active ? 0 : -1}
        className={selected ? 'gallery-cell-button selected' : 'gallery-cell-button'}
        onClick={handlers.click}
        onPointerDown={handlers.pointerDown}
        onPointerMove={handlers.pointerMove}
        onPointerUp={handlers.pointerEnd}
        onPointerCancel={handlers.pointerEnd}
        onContextMenu={handlers.contextMenu}
      >
        <Thumbnail file={file} alt={title} />
        {badge !== undefined && <FileTypeBadge fileType={file.metadata.fileType} label={badge} />}
      </button>
      {selected !== undefined && (
        <span
          className={`cell-check${selecting || selected ? ' shown' : ''}${selecting ? ' selecting' : ''}${selected ? ' checked' : ''}`}
        >
          <input
            type="checkbox"
            checked={selected}
            // The grid's keys select (Space): one tab stop per cell, the button.
            tabIndex={-1}
            aria-label={selectLabel}
            onChange={(event) => handlers.check(file.id, (event.nativeEvent as MouseEvent).shiftKey)}
          />
          {selected ? <SelectedGlyph size="small" /> : <NotSelectedGlyph size="small" />}
        </span>
      )}
    </div>
  );
});

/** The words of a file's badge (FileTypeBadge), for a video or a live photo; undefined for others (no badge). */
const badgeOf = (fileType: FileType, labels: RowLabels) =>
  fileType === FileType.video ? labels.video : fileType === FileType.livePhoto ? labels.livePhoto : undefined;
