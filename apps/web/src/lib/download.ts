import { ApiError, clientHeaders, queryString, reportClientMismatch } from './http.ts';
import { runtimeConfig } from './runtime-config.ts';
import { authorizationHeader } from './session-storage.ts';

/**
 * Downloads a streamed CSV export, reporting bytes as they arrive, then saves it under the
 * server's file name. The server streams every matching row; the browser only collects them.
 */
export async function downloadCsv(
  path: string,
  query: Record<string, string | string[]>,
  onProgress: (bytes: number) => void,
  signal?: AbortSignal,
): Promise<{ fileName: string; bytes: number }> {
  const headers: Record<string, string> = { accept: 'text/csv', ...clientHeaders() };
  const auth = authorizationHeader(window.sessionStorage);
  if (auth) headers.authorization = auth;
  const response = await fetch(`${runtimeConfig().apiBaseUrl}${path}${queryString(query)}`, { headers, signal });
  if (!response.ok || !response.body) {
    reportClientMismatch(response);
    const body = await response.json().catch(() => ({ message: `Export failed (${response.status}).`, statusCode: response.status }));
    throw new ApiError(response.status, body);
  }
  const reader = response.body.getReader();
  const chunks: BlobPart[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    onProgress(bytes);
  }
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'export.csv';
  const url = URL.createObjectURL(new Blob(chunks, { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { fileName, bytes };
}
