// The emulator's collection bodies from kept row texts: byte for byte what JSON.stringify writes,
// whether the rows lie together in a slab, apart, across slabs, or were never served before.
import { bodyJson, markCollection, RowTexts } from '../../emulator/server/row-json';

const small = () => new RowTexts({ firstSlabBytes: 64, largestSlabBytes: 256 });

function text(json: string | Buffer[]): string {
  return typeof json === 'string' ? json : Buffer.concat(json).toString('utf8');
}

const rows = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => ({ id: from + i, src: `+4420794600${from + i}`, note: 'é ☎ 𝄞' }));

describe('collection bodies from kept row texts', () => {
  it('writes what JSON.stringify writes, for rows served before and rows served first', () => {
    const texts = small();
    const all = rows(40);
    const body = (data: object[]) => markCollection({ data, total: all.length });
    expect(text(bodyJson(body(all.slice(0, 10)), texts))).toBe(JSON.stringify(body(all.slice(0, 10))));
    // Some rows kept, some new, out of their first order, across several slabs.
    const mixed = [...all.slice(5, 25), all[2]!, ...all.slice(30, 40)];
    expect(text(bodyJson(body(mixed), texts))).toBe(JSON.stringify(body(mixed)));
    expect(JSON.parse(text(bodyJson(body(mixed), texts)))).toEqual({ data: mixed, total: 40 });
  });

  it('serves a page read before as one slice of its slab', () => {
    const texts = new RowTexts();
    const page = rows(500);
    const body = markCollection({ data: page, total: 500 });
    bodyJson(body, texts);
    const again = bodyJson(markCollection({ data: page.slice(100, 300), total: 500 }), texts);
    // Opening, the rows' one slice, closing.
    expect(again).toHaveLength(3);
    expect(JSON.parse(text(again))).toEqual({ data: page.slice(100, 300), total: 500 });
  });

  it('writes a replaced row anew, and the others from where they are', () => {
    const texts = small();
    const page = rows(6);
    bodyJson(markCollection({ data: page, total: 6 }), texts);
    const updated = [...page];
    updated[3] = { ...page[3]!, note: 'changed' };
    const served = text(bodyJson(markCollection({ data: updated, total: 6 }), texts));
    expect(JSON.parse(served)).toEqual({ data: updated, total: 6 });
  });

  it('keeps its mark off the rows: spreads and JSON see the same fields', () => {
    const texts = small();
    const [row] = rows(1);
    bodyJson(markCollection({ data: [row!], total: 1 }), texts);
    expect(Object.keys({ ...row })).toEqual(['id', 'src', 'note']);
    expect(JSON.stringify(row)).toBe(JSON.stringify({ ...row }));
  });

  it('answers an empty page, frozen rows and other bodies as text', () => {
    const texts = small();
    expect(bodyJson(markCollection({ data: [], total: 7 }), texts)).toBe('{"data":[],"total":7}');
    const frozen = Object.freeze({ id: 1, a: 'x' });
    const twice = [frozen, frozen];
    expect(text(bodyJson(markCollection({ data: twice, total: 2 }), texts))).toBe(
      JSON.stringify({ data: twice, total: 2 }),
    );
    expect(bodyJson({ data: [{ id: 1 }], total: 1 }, texts)).toBe('{"data":[{"id":1}],"total":1}');
  });
});
