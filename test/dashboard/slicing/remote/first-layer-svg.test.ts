import assert from 'node:assert/strict';
import { test } from 'node:test';
import { colourOf, firstLayerSvg } from '../../../../appliance/dashboard/slicing/remote/first-layer-svg.js';

test('one group per type, coloured by type, flipped so that G-code Y points up, cropped with a margin', () => {
  const svg = firstLayerSvg(
    {
      z: 0.2,
      paths: [
        {
          type: 'Outer wall',
          width: 0.4,
          points: [
            [10, 10],
            [20, 10],
          ],
        },
        {
          type: 'Sparse infill',
          width: 0.5,
          points: [
            [10, 20],
            [20, 20],
          ],
        },
        {
          type: 'Outer wall',
          width: 0.4,
          points: [
            [10, 12],
            [20, 12],
          ],
        },
      ],
    },
    'First layer of <cube>',
  );
  assert.match(svg, /^<\?xml/);
  assert.match(svg, /<title>First layer of &#60;cube&#62;<\/title>/);
  assert.match(svg, / data-z="0\.2"/);
  const groups = [...svg.matchAll(/<g data-type="([^"]+)" stroke="([^"]+)">/g)].map((m) => [m[1], m[2]]);
  assert.deepEqual(groups, [
    ['Outer wall', colourOf('outer wall')],
    ['Sparse infill', colourOf('SPARSE INFILL')],
  ]);
  assert.notEqual(colourOf('Outer wall'), colourOf('Sparse infill'));
  // x from 10-0.25-2 = 7.75 to 20+0.25+2 = 22.25; y from 7.8 to 22.25.
  assert.match(svg, /viewBox="0 0 14\.5 14\.45"/);
  // G-code (10, 20) is near the top of the picture, (10, 10) near the bottom.
  assert.match(svg, /points="2\.25,2\.25 12\.25,2\.25"/);
  assert.match(svg, /points="2\.25,12\.25 12\.25,12\.25"/);
});
