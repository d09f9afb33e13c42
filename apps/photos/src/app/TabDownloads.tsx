// The download panel over the tab's downloads (download/downloads.ts): cancel one, try a failed one again, clear
// those that ended. The signed-in pages and the public album's page (fetched there with its first download) show it.
import { DownloadPanel } from '../components/download-panel/DownloadPanel.tsx';
import { downloads } from '../download/downloads.ts';
import { useDownloads } from '../download/use-downloads.ts';

export function TabDownloads() {
  const tasks = useDownloads();
  return (
    <DownloadPanel
      tasks={tasks}
      onCancel={(id) => downloads.cancel(id)}
      onRetry={(id) => void downloads.retry(id)}
      onClearFinished={() => downloads.clearFinished()}
    />
  );
}
