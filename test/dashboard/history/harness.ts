/** What the history tests share: reading the history over HTTP and waiting for a record. */
import type { HistoryRecord } from '../../../appliance/dashboard/history/record.js';
import type { DashboardFixture } from '../../fixtures/dashboard.js';
import { eventually } from '../../fixtures/eventually.js';

export async function historyList(dash: DashboardFixture, token: string, query = ''): Promise<HistoryRecord[]> {
  const response = await dash.request('GET', `/api/history${query}`, { token });
  if (response.status !== 200) throw new Error(`GET /api/history${query}: ${response.status} ${response.text}`);
  return response.json.items as HistoryRecord[];
}

/** The record of `file` once it matches, read over HTTP. */
export async function recordOf(
  dash: DashboardFixture,
  token: string,
  file: string,
  wanted: (record: HistoryRecord) => boolean,
  what: string,
): Promise<HistoryRecord> {
  let found: HistoryRecord | undefined;
  await eventually(what, async () => {
    found = (await historyList(dash, token, `?q=${encodeURIComponent(file)}&limit=500`)).find((r) => r.file === file && wanted(r));
    return found !== undefined;
  });
  return found as HistoryRecord;
}
