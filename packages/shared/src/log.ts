// The app's log: each line is kept in local storage under `logs` as {logLine, timestamp} (newest 1000),
// so a user can send it when reporting a problem, and echoed to the console in development.
//
// Never pass secrets (tokens, keys, passwords, codes, recovery phrases) to the log, not even inside an
// object or an error message. As a second line of defence, fields of logged objects whose names look
// secret are replaced by "[redacted]".
import { isDevBuild } from './config.ts';
import { storageRegistry, type LocalKey, type LogEntry } from './storage/registry.ts';

/** How many entries the stored log keeps; older ones are dropped. */
export const maxLogEntries = 1000;

// Functions rather than methods, so that they can be passed on (`.catch(log.error)`) without `this`.
export const log = {
  info: (message: string, detail?: unknown): void => {
    write('info', message, detail);
  },
  warn: (message: string, detail?: unknown): void => {
    write('warn', message, detail);
  },
  error: (message: string, detail?: unknown): void => {
    write('error', message, detail);
  },
};

/** The stored entries, oldest first (unreadable storage reads as empty). */
export function savedLogs(): LogEntry[] {
  try {
    const raw = localStorage.getItem(logsKey);
    if (raw === null) return [];
    const parsed = storageRegistry.localStorage.keys.logs.shape.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

type Level = 'info' | 'warn' | 'error';

const logsKey = 'logs' satisfies LocalKey;
const secretFieldPattern =
  /token|secret|password|passphrase|key|nonce|salt|verifier|mnemonic|^ott$|^code$|^srpM1$|^srpM2$|^srpA$|^srpB$/i;

function write(level: Level, message: string, detail: unknown): void {
  const logLine = `[${level}] ${message}${detail === undefined ? '' : `: ${describe(detail)}`}`;
  if (isDevBuild) console[level === 'info' ? 'log' : level](logLine);
  persist({ logLine, timestamp: Date.now() });
}

function persist(entry: LogEntry): void {
  try {
    const entries = [...savedLogs(), entry].slice(-maxLogEntries);
    localStorage.setItem(logsKey, JSON.stringify(entries));
  } catch (e) {
    // Full storage must not take the app down with it: drop the stored log and carry on.
    if (isQuotaExceeded(e)) {
      try {
        localStorage.removeItem(logsKey);
      } catch {
        // Nothing more we can do.
      }
    }
  }
}

function isQuotaExceeded(e: unknown): boolean {
  if (!(e instanceof Error) && !(typeof DOMException !== 'undefined' && e instanceof DOMException)) return false;
  const { name, code } = e as { name?: string; code?: number };
  // Chromium/WebKit use QuotaExceededError (code 22); old Firefox NS_ERROR_DOM_QUOTA_REACHED (1014).
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED' || code === 22 || code === 1014;
}

function describe(detail: unknown): string {
  if (detail instanceof Error) {
    const cause = detail.cause === undefined ? '' : ` (cause: ${describe(detail.cause)})`;
    return `${detail.name}: ${detail.message}${cause}`;
  }
  if (typeof detail === 'string') return detail;
  try {
    return JSON.stringify(detail, (key, value: unknown) =>
      key !== '' && secretFieldPattern.test(key) ? '[redacted]' : value,
    );
  } catch {
    return String(detail);
  }
}
