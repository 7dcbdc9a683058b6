import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { MultipartForm } from '../../../appliance/common/multipart.js';
import { ProfileCatalogue } from '../../../appliance/slicer/profiles/catalogue.js';
import { parseSliceForm, resolveJobConfig } from '../../../appliance/slicer/run/slice-form.js';

const MODEL = { field: 'model', fileName: 'cube.stl', mimeType: 'model/stl', path: '/tmp/upload-x', size: 684 };
const GOOD = { printer_id: 'generic-marlin-0.4', filament_ids: '["generic-pla"]', process_id: '0.20mm-standard' };

function form(fields: Record<string, string>, withModel = true): MultipartForm {
  return { fields: new Map(Object.entries(fields)), files: new Map(withModel ? [['model', MODEL]] : []) };
}

let catalogue: ProfileCatalogue;
before(async () => {
  catalogue = await ProfileCatalogue.bundled();
});

test('a complete form is parsed', () => {
  const f = parseSliceForm(form({ ...GOOD, overrides: '{"sparse_infill_density":"20%"}' }));
  assert.deepEqual(f, {
    model: MODEL,
    printerId: 'generic-marlin-0.4',
    filamentIds: ['generic-pla'],
    processId: '0.20mm-standard',
    overrides: { sparse_infill_density: '20%' },
  });
  assert.equal(parseSliceForm(form(GOOD)).overrides, null);
  assert.equal(parseSliceForm(form({ ...GOOD, overrides: '  ' })).overrides, null);
});

test('every missing or invalid field is a 400 naming it', () => {
  const cases: Array<[MultipartForm, RegExp]> = [
    [form(GOOD, false), /field "model" is required/],
    [form({ ...GOOD, printer_id: '' }), /field "printer_id" is required/],
    [form({ filament_ids: GOOD.filament_ids, printer_id: GOOD.printer_id }), /field "process_id" is required/],
    [form({ ...GOOD, filament_ids: 'generic-pla' }), /field "filament_ids" must be a JSON array/],
    [form({ ...GOOD, filament_ids: '[]' }), /field "filament_ids" must be a non-empty JSON array/],
    [form({ ...GOOD, filament_ids: '[1]' }), /field "filament_ids"/],
    [form({ ...GOOD, overrides: '{oops' }), /field "overrides" must be a JSON object/],
    [form({ ...GOOD, overrides: '[1]' }), /field "overrides" must be a JSON object/],
    [form({ ...GOOD, printer: 'x' }), /unknown field "printer"/],
  ];
  for (const [f, message] of cases) {
    assert.throws(
      () => parseSliceForm(f),
      (err: Error & { code?: string; status?: number }) => {
        assert.match(err.message, message);
        assert.equal(err.code, 'ERR_BAD_REQUEST');
        assert.equal(err.status, 400);
        return true;
      },
    );
  }
});

test('the job configuration is resolved; setting and filament errors become 400 ERR_BAD_REQUEST', () => {
  const config = resolveJobConfig(catalogue, parseSliceForm(form({ ...GOOD, overrides: '{"layer_height":0.12}' })));
  assert.equal(config.layer_height, 0.12);
  const expectBad = (fields: Record<string, string>, message: RegExp) =>
    assert.throws(
      () => resolveJobConfig(catalogue, parseSliceForm(form(fields))),
      (err: Error & { code?: string; status?: number }) => err.code === 'ERR_BAD_REQUEST' && err.status === 400 && message.test(err.message),
    );
  expectBad({ ...GOOD, overrides: '{"layer_hieght":0.1}' }, /field "overrides": unknown setting "layer_hieght"/);
  expectBad({ ...GOOD, overrides: '{"layer_height":"thick"}' }, /field "overrides": invalid value for setting "layer_height"/);
  expectBad(
    { ...GOOD, filament_ids: '["generic-pla","generic-petg"]' },
    /field "filament_ids": printer "generic-marlin-0.4" takes 1 to 1 filaments, got 2/,
  );
  assert.throws(
    () => resolveJobConfig(catalogue, parseSliceForm(form({ ...GOOD, process_id: 'no-such-process' }))),
    (err: Error & { code?: string; status?: number }) => err.code === 'ERR_PROFILE_NOT_FOUND' && err.status === 404,
  );
});
