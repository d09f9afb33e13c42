// A panel in a bottom corner of the page for work that goes on while the person browses (the uploads, the
// downloads): a named section, its title as a heading (said to screen readers once the work has ended, not at
// each step), the panel's own buttons beside it, then its content and its list of rows.
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import visuallyHidden from '@mui/utils/visuallyHidden';
import type { ReactNode } from 'react';

export interface CornerPanelProps {
  /** The section's accessible name. */
  label: string;
  title: string;
  /** Whether the work has ended (the title is then announced). */
  ended: boolean;
  side: 'left' | 'right';
  /** Beside the title. */
  actions?: ReactNode;
  /** Between the title and the list (an overall bar, buttons). */
  children?: ReactNode;
  /** The list's rows (`li`s), scrolled within the panel; `listId` and `listHidden` for a button that folds it. */
  rows: ReactNode;
  listId?: string;
  listHidden?: boolean;
}

/** Whole percents of `done` out of `total` (0 without a total): a screen reader reads the value as it is. */
export const percent = (done: number, total: number) =>
  total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;

export function CornerPanel(props: CornerPanelProps) {
  const { label, title, ended, side, actions, children, rows, listId, listHidden } = props;
  return (
    <Paper
      component="section"
      aria-label={label}
      elevation={8}
      sx={{
        position: 'fixed',
        [side]: { xs: 8, sm: 16 },
        bottom: { xs: 8, sm: 16 },
        width: { xs: 'calc(100vw - 16px)', sm: 380 },
        // Over the page, under a dialog and its backdrop: a modal dialog's buttons are never covered by a panel.
        zIndex: (theme) => theme.zIndex.appBar,
        p: 1.5,
      }}
    >
      <Box role="status" sx={visuallyHidden}>
        {ended ? title : ''}
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography component="h2" sx={{ flex: 1, fontWeight: 600 }}>
          {title}
        </Typography>
        {actions}
      </Box>
      {children}
      <Box
        component="ul"
        id={listId}
        hidden={listHidden}
        sx={{ listStyle: 'none', m: 0, mt: 1, p: 0, maxHeight: '40vh', overflowY: 'auto' }}
      >
        {rows}
      </Box>
    </Paper>
  );
}

/** A row's name (cut to one line, whole in its tooltip) and its status line, red when it failed. */
export function RowText({ name, status, failed }: { name: string; status: string; failed: boolean }) {
  return (
    <>
      <Typography variant="body2" noWrap title={name}>
        {name}
      </Typography>
      <Typography variant="caption" sx={{ color: failed ? 'error.main' : 'text.secondary', display: 'block' }}>
        {status}
      </Typography>
    </>
  );
}
