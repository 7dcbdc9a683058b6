import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isValidProfileId, makeProfileId, slugify } from '../../../appliance/slicer/profiles/ids.js';

test('slugify keeps dots, spells out plus signs and collapses punctuation', () => {
  assert.equal(slugify('0.20mm Standard @BBL X1C'), '0.20mm-standard-bbl-x1c');
  assert.equal(slugify('Original Prusa i3 MK3S & MK3S+'), 'original-prusa-i3-mk3s-mk3s-plus');
  assert.equal(slugify('  Voron 2.4 350 (0.4 nozzle) '), 'voron-2.4-350-0.4-nozzle');
  assert.equal(slugify('End. -.Start'), 'end-start');
});

test('makeProfileId joins slugged parts and skips empty ones', () => {
  assert.equal(makeProfileId('Prusa Research', '0.15mm QUALITY @MK3'), 'prusa-research-0.15mm-quality-mk3');
  assert.equal(makeProfileId('', 'Generic PLA'), 'generic-pla');
});

test('isValidProfileId accepts slugs only', () => {
  for (const id of ['generic-pla', '0.20mm-standard', 'voron-2.4-350-0.4', 'a_b']) assert.ok(isValidProfileId(id), id);
  for (const id of ['', 'Generic PLA', '-x', 'x-', 'x.', 'ä', 'a/b']) assert.ok(!isValidProfileId(id), id);
});
