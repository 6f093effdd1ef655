import { type FeedRunDetail, feedRunResource } from '@admin/shared/resources/survey-manager-logs';
import { api } from './http.ts';

/** How often a running feed run is asked how far it got. */
const POLL_MS = 700;

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/**
 * Follows a feed run (an upload, a re-run) until the workers have admitted its rows: calls
 * `onProgress` with each reading while it runs and answers the finished run (Survey Manager Logs'
 * detail, with its first row errors). Stops with `signal` (the dialog closed).
 */
export async function followRun(id: number, onProgress: (run: FeedRunDetail) => void, signal?: AbortSignal): Promise<FeedRunDetail> {
  for (;;) {
    const { data } = await api.get<{ data: FeedRunDetail }>(`${feedRunResource.path}/${id}`, { ...(signal ? { signal } : {}) });
    if (data.run_status !== 'running') return data;
    onProgress(data);
    await pause(POLL_MS, signal);
  }
}
