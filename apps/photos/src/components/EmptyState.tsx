// What a view shows when it has nothing to show: a heading (when there is one) and a line of text.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

export function EmptyState({ title, body }: { title?: string; body: string }) {
  return (
    <Box sx={{ py: 8, textAlign: 'center' }}>
      {title && (
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {title}
        </Typography>
      )}
      <Typography sx={{ color: 'text.secondary' }}>{body}</Typography>
    </Box>
  );
}
