import { describe, expect, test } from 'vitest';
import { toXml } from '../../mock/http/to-xml.js';

describe('toXml', () => {
  test('wraps an object in an xml element with an element per property, as Prism does', () => {
    expect(toXml({ id: 0, name: 'doggie', status: 'available' })).toBe(
      '<xml><id>0</id><name>doggie</name><status>available</status></xml>',
    );
  });

  test('names the root after the schema’s xml.name when given', () => {
    expect(toXml({ id: 1 }, 'Pet')).toBe('<Pet><id>1</id></Pet>');
  });

  test('repeats an element per item of a list property, and nests objects', () => {
    expect(toXml({ tags: ['a', 'b'], owner: { name: 'Ann' } })).toBe(
      '<xml><tags>a</tags><tags>b</tags><owner><name>Ann</name></owner></xml>',
    );
  });

  test('a list body is a root with an item element each', () => {
    expect(toXml([1, 2])).toBe('<xml><item>1</item><item>2</item></xml>');
  });

  test('a null value is an empty element', () => {
    expect(toXml({ note: null })).toBe('<xml><note></note></xml>');
  });

  test('escapes text, and drops characters XML 1.0 cannot carry', () => {
    expect(toXml({ q: 'a < b & c > d\u0000' })).toBe('<xml><q>a &lt; b &amp; c &gt; d</q></xml>');
  });

  test('makes property names XML does not allow into valid element names', () => {
    expect(toXml({ '1st': 1, 'a b': 2, 'x:y': 3, '': 4 })).toBe(
      '<xml><_1st>1</_1st><a_b>2</a_b><x_y>3</x_y><_>4</_></xml>',
    );
  });

  test('a string body is sent as it is: an example may be written as XML already', () => {
    expect(toXml('<node>abc</node>')).toBe('<node>abc</node>');
  });
});
