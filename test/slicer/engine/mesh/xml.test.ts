import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { XmlScanner } from '../../../../appliance/slicer/engine/mesh/xml.js';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

function tags(xml: string): string[] {
  const s = new XmlScanner(new TextEncoder().encode(xml), 'test.xml');
  const out: string[] = [];
  while (s.next()) out.push(`${s.kind}:${s.name}@${s.depth}`);
  return out;
}

describe('XmlScanner', () => {
  it('reports open, close and empty tags with their depth, skipping prolog, comments and CDATA', () => {
    const xml =
      '\ufeff<?xml version="1.0"?>\n<!DOCTYPE model>\n<!-- a <fake> tag -->\n<model a="1">' +
      '<resources><![CDATA[<not-a-tag>]]><object id="1"/></resources>text<build></build></model>';
    assert.deepEqual(tags(xml), [
      'open:model@0',
      'open:resources@1',
      'empty:object@2',
      'close:resources@1',
      'open:build@1',
      'close:build@1',
      'close:model@0',
    ]);
  });

  it('reads attributes by qualified or local name, decoding entities', () => {
    const s = new XmlScanner(
      utf8(`<c p:path="/3D/a&amp;b.model" name='x &lt;y&gt; &#65;&#x42; &constructor; &#x110000;' v1=" 17 " v2="1.5" x="-1e-3"/>`),
      't',
    );
    assert.equal(s.next(), true);
    assert.equal(s.attr('p:path'), '/3D/a&b.model');
    assert.equal(s.attr('path'), undefined);
    assert.equal(s.attrLocal('path'), '/3D/a&b.model');
    assert.equal(s.attr('name'), 'x <y> AB &constructor; &#x110000;');
    assert.equal(s.attrIndex('v1'), 17);
    assert.equal(s.attrIndex('v2'), -1);
    assert.equal(s.attrIndex('missing'), -1);
    assert.equal(s.attrNumber('x'), -0.001);
    assert.ok(Number.isNaN(s.attrNumber('missing')));
  });

  it('parses numbers in place and refuses partial ones', () => {
    const s = new XmlScanner(utf8('<v a=" 2.5 " b="1e" c="0x10" d="" e="-.5E+2" f="3 4" g="12345678901234567890"/>'), 't');
    s.next();
    assert.equal(s.attrNumber('a'), 2.5);
    assert.ok(Number.isNaN(s.attrNumber('b')));
    assert.ok(Number.isNaN(s.attrNumber('c')));
    assert.ok(Number.isNaN(s.attrNumber('d')));
    assert.equal(s.attrNumber('e'), -50);
    assert.ok(Number.isNaN(s.attrNumber('f')));
    assert.equal(s.attrNumber('g'), Number('12345678901234567890'));
  });

  it('decodes UTF-8 names and values', () => {
    const s = new XmlScanner(utf8('<wörld name="Würfel €"><wörld/></wörld>'), 't');
    const seen: string[] = [];
    while (s.next()) seen.push(`${s.kind}:${s.name}:${s.attr('name') ?? ''}`);
    assert.deepEqual(seen, ['open:wörld:Würfel €', 'empty:wörld:', 'close:wörld:']);
  });

  it('does not confuse an attribute with another that ends the same', () => {
    const s = new XmlScanner(utf8('<vertex xx="5" x="1"/>'), 't');
    s.next();
    assert.equal(s.attrNumber('x'), 1);
  });

  it('rejects broken documents with ERR_BAD_MODEL naming the part and line', () => {
    const cases: [string, RegExp][] = [
      ['<a>\n<b>\n</a>', /bad XML in test.xml, line 3: <\/a> found where <\/b> was expected/],
      ['<a>\n<b/>', /line 2: the document ends before <a> is closed/],
      ['<a x="1></a>', /attribute x of <a> has an unterminated value/],
      ['<a x=1/>', /attribute x of <a> has a value that is not quoted/],
      ['<a x/>', /attribute x of <a> has no value/],
      ['<a><!-- open comment', /unterminated comment/],
      ['</a>', /<\/a> closes nothing/],
      ['<a><b', /unterminated tag <b/],
      ['< a/>', /not followed by a tag name/],
    ];
    for (const [xml, message] of cases) {
      assert.throws(() => tags(xml), { code: 'ERR_BAD_MODEL', status: 422, message }, xml);
    }
  });
});
