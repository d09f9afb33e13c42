// The download panel over the tab's downloads (download/downloads.ts): cancel one, clear those that ended.
import { DownloadPanel } from '../components/download-panel/DownloadPanel.tsx';
import { downloads } from '../download/downloads.ts';
import { useDownloads } from '../download/use-downloads.ts';

export function TabDownloads() {
  const tasks = useDownloads();
  return (
    <DownloadPanel
      tasks={tasks}
      onCancel={(id) => downloads.cancel(id)}
      onClearFinished={() => downloads.clearFinished()}
    />
  );
}
