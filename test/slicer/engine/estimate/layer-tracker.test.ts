import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LayerTracker } from '../../../../appliance/slicer/engine/estimate/layer-tracker.js';

/** Stands in for the planner: collects markers, resolves them when told. */
class Markers {
  readonly tags: string[] = [];
  private next = 0;

  marker(tag: string): void {
    this.tags.push(tag);
  }

  resolveAll(tracker: LayerTracker, times: number[]): void {
    while (this.next < this.tags.length) tracker.resolved(this.tags[this.next], times[this.next++]);
  }
}

function comment(tracker: LayerTracker, text: string): boolean {
  const bytes = Buffer.from(text);
  return tracker.isLayerComment(bytes, 1, bytes.length);
}

test('counts the first layer-comment convention met and ignores the others', () => {
  const tracker = new LayerTracker();
  assert.equal(comment(tracker, '; CHANGE_LAYER'), true);
  assert.equal(comment(tracker, ';LAYER_CHANGE'), false);
  assert.equal(comment(tracker, '; CHANGE_LAYER'), true);
  assert.equal(comment(tracker, ';TYPE:External perimeter'), false);
  assert.equal(comment(tracker, ';LAYER_COUNT:30'), false);
  const cura = new LayerTracker();
  assert.equal(comment(cura, ';LAYER:0'), true);
});

test('comment layers win over Z layers', () => {
  const tracker = new LayerTracker();
  const markers = new Markers();
  tracker.zChanged(markers);
  tracker.extrudedAt(0.2);
  markers.marker(LayerTracker.COMMENT_TAG);
  markers.resolveAll(tracker, [1, 5]);
  assert.equal(tracker.source(), 'comments');
  assert.deepEqual(tracker.starts(), [5]);
});

test('a Z layer takes the time of the Z move that led to it, resolved before or after it is confirmed', () => {
  const tracker = new LayerTracker();
  const markers = new Markers();
  tracker.zChanged(markers); // 1: to 0.2
  tracker.extrudedAt(0.2); // layer 1, still unresolved
  tracker.zChanged(markers); // 2: hop to 0.6
  tracker.zChanged(markers); // 3: back to 0.2
  tracker.extrudedAt(0.2); // same layer
  tracker.zChanged(markers); // 4: to 0.4
  markers.resolveAll(tracker, [10, 20, 30, 40]);
  tracker.extrudedAt(0.4); // layer 2, its Z move already resolved
  tracker.zChanged(markers); // 5: to 0.6
  tracker.extrudedAt(0.6); // layer 3
  tracker.extrudedAt(0.6);
  markers.resolveAll(tracker, [10, 20, 30, 40, 50]);
  assert.equal(tracker.source(), 'z');
  assert.deepEqual(tracker.starts(), [10, 40, 50]);
});

test('extrusion before any Z move starts the first layer at time zero', () => {
  const tracker = new LayerTracker();
  tracker.extrudedAt(0);
  assert.deepEqual(tracker.starts(), [0]);
});
