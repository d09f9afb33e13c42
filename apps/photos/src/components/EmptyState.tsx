// What a view shows when it has nothing to show: a heading (when there is one) and a line of text. Boxes, not
// Typography: a public album's first screen has no other use for it.
import Box from '@mui/material/Box';

export function EmptyState({ title, body }: { title?: string; body: string }) {
  return (
    <Box sx={{ py: 8, textAlign: 'center' }}>
      {title && (
        <Box component="h2" sx={{ typography: 'h6', mt: 0, mb: 1 }}>
          {title}
        </Box>
      )}
      <Box component="p" sx={{ typography: 'body1', color: 'text.secondary', m: 0 }}>
        {body}
      </Box>
    </Box>
  );
}
