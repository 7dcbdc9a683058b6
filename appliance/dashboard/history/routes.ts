/**
 * The history routes: the list (filters, order, pages), one record, its picture, the CSV export,
 * the stats, and deleting a record. Reading needs `view`; deleting needs `admin` (the history is
 * the farm's record of what happened).
 */
import { contentDisposition, sendFile } from '../../common/download.js';
import { AppError, ErrorCode } from '../../common/errors.js';
import type { RouteSpec } from '../http/route.js';
import { validationError } from '../http/validate.js';
import { CSV_COLUMNS, csvStream } from './csv.js';
import type { PrintHistory } from './history.js';
import { DEFAULT_PAGE_SIZE, filterFromQuery, orderFromQuery, paginate, select } from './query.js';
import { errorSchemaRef, filterQuery, orderQuery, pageQuery, pageSchema, recordIdSchema, recordSchema, statsSchema } from './schemas.js';
import { historyStats } from './stats.js';

export const TAG = 'history';

const idParam = { id: recordIdSchema };
const notFound = { description: 'No such record (ERR_NOT_FOUND).', schema: errorSchemaRef };
const badQuery = { description: 'A query parameter that does not fit (ERR_VALIDATION, naming it in details).', schema: errorSchemaRef };

export function historyRoutes(history: PrintHistory): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/api/history',
      level: 'view',
      tag: TAG,
      summary: 'List recorded prints',
      description:
        "Newest start first unless `sort`/`order` say otherwise. Page by `offset`, or by `cursor` = the previous page's `next_cursor` " +
        '(stable while new prints are recorded). `total` counts every record the filters match.',
      query: { ...filterQuery, ...orderQuery, ...pageQuery },
      responses: { 200: { description: 'A page of records.', schema: pageSchema }, 400: badQuery },
      handler({ query }) {
        if (query.offset !== undefined && query.cursor !== undefined) {
          throw validationError([{ path: 'query/cursor', message: 'cannot be combined with offset' }]);
        }
        const order = orderFromQuery(query);
        const ordered = select(history.store().all(), filterFromQuery(query), order);
        const limit = query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(query.limit);
        return paginate(ordered, order, limit, {
          ...(query.offset === undefined ? {} : { offset: Number(query.offset) }),
          ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
        });
      },
    },
    {
      method: 'get',
      path: '/api/history/export',
      level: 'view',
      tag: TAG,
      summary: 'Export recorded prints as CSV',
      description:
        'RFC 4180 CSV in UTF-8 with a byte-order mark, CRLF line ends, a header row, fields with a comma, quote or line break quoted ' +
        `(quotes doubled). The same filters and order as the list, without pages; streamed. Columns: ${CSV_COLUMNS.join(', ')}.`,
      query: { ...filterQuery, ...orderQuery },
      responses: { 200: { description: 'The CSV file, as an attachment.', contentType: 'text/csv' }, 400: badQuery },
      async handler({ query, res }) {
        const records = select(history.store().all(), filterFromQuery(query), orderFromQuery(query));
        res.status(200);
        res.header('content-type', 'text/csv; charset=utf-8');
        res.header('content-disposition', contentDisposition(`print-history-${new Date().toISOString().slice(0, 10)}.csv`));
        res.header('cache-control', 'no-store');
        await res.stream(csvStream(records));
      },
    },
    {
      method: 'get',
      path: '/api/history/stats',
      level: 'view',
      tag: TAG,
      summary: 'Statistics of recorded prints',
      description:
        'Over the ended prints the filters select: success rate (finished ÷ ended), print hours, filament and cost, in total, per printer, ' +
        "per material and per month of the start; and the estimate's accuracy: mean and median of real duration ÷ slicer estimate over " +
        'finished prints that had one.',
      query: filterQuery,
      responses: { 200: { description: 'The figures.', schema: statsSchema }, 400: badQuery },
      handler({ query }) {
        const filter = filterFromQuery(query);
        return historyStats(select(history.store().all(), filter, { sort: 'started_at', descending: false }));
      },
    },
    {
      method: 'get',
      path: '/api/history/:id',
      level: 'view',
      tag: TAG,
      summary: 'One recorded print',
      params: idParam,
      responses: { 200: { description: 'The record.', schema: recordSchema }, 404: notFound },
      handler({ params }) {
        return history.record(params.id as string);
      },
    },
    {
      method: 'get',
      path: '/api/history/:id/thumbnail.png',
      level: 'view',
      tag: TAG,
      summary: "A recorded print's picture",
      description: 'The plate picture the queue gave the print (PNG). 404 when the print has none.',
      params: idParam,
      responses: { 200: { description: 'The PNG.', contentType: 'image/png' }, 404: notFound },
      async handler({ params, res }) {
        const id = params.id as string;
        if (history.record(id).thumbnail === null) throw new AppError(ErrorCode.notFound, 404, `print ${id} has no picture`);
        try {
          await sendFile(res, history.thumbnails.file(id), { contentType: 'image/png' });
        } catch {
          throw new AppError(ErrorCode.notFound, 404, `the picture of print ${id} is missing`);
        }
      },
    },
    {
      method: 'delete',
      path: '/api/history/:id',
      level: 'admin',
      tag: TAG,
      summary: 'Delete a recorded print',
      description: 'The record and its picture. Deleting a print that still runs drops it: the rest of that print is not recorded.',
      params: idParam,
      responses: { 204: { description: 'Deleted.' }, 404: notFound },
      async handler({ params }) {
        await history.delete(params.id as string);
      },
    },
  ];
}
