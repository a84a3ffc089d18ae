import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditEntry } from './entry.js';
import { entryOf, recordFromEntry } from './entry-record.js';
import type { EncodedRecord, EntryRecord } from './entry-record.js';
import { decodeRecord, encodeRecord, readHead, releaseRecords } from './segment-record.js';
import { SpillFile } from './spill.js';
import { syntheticEntry } from './synthetic-entry.js';

const T0 = Date.UTC(2025, 2, 10);

function records(): EntryRecord[] {
  return [
    // Bodies as bytes (what the writer captures), text beyond ASCII in both.
    { ...recordFromEntry(syntheticEntry({ id: 'e1', ts: T0, labels: { team: 'ml' } })), request_body: Buffer.from('{"q":"héllo ✓"}'), response_body: Buffer.from('{"a":"ü"}') },
    // Bodies as text (a reassembled stream, an error envelope), an id that needs escaping.
    { ...recordFromEntry(syntheticEntry({ id: 'e"2', ts: T0 + 1 })), request_body: 'text ü', response_body: '{"streamed":"ö"}' },
    // No bodies at all, and empty ones.
    { ...recordFromEntry(syntheticEntry({ id: 'e3', ts: T0 + 2 })), request_body: null, response_body: null },
    { ...recordFromEntry(syntheticEntry({ id: 'e4', ts: T0 + 3 })), request_body: '', response_body: Buffer.alloc(0) },
  ];
}

describe('audit segment record encoding', () => {
  it('lays a record out as documented, in one buffer that fits it exactly', () => {
    for (const r of records()) {
      const size = (body: Buffer | string | null): number => (body === null ? -1 : Buffer.byteLength(body));
      const text = (body: Buffer | string | null): string => (body === null ? '' : body.toString());
      const expected = `[${JSON.stringify(r.id)},${size(r.request_body as Buffer | string | null)},${size(r.response_body as Buffer | string | null)},${r.detail}]\n${text(r.request_body as Buffer | string | null)}${text(r.response_body as Buffer | string | null)}\n`;
      const encoded = encodeRecord(r);
      expect(encoded.encoded.toString()).to.equal(expected);
      expect(encoded.encoded.length).to.equal(Buffer.byteLength(expected));
      expect(readHead(encoded.encoded, 0, encoded.encoded.length)?.id).to.equal(r.id);
    }
  });

  it('keeps the columns as values and gives back the whole entry the record stands for', () => {
    for (const r of records()) {
      const { encoded, ...columns } = encodeRecord(r);
      expect(encoded.length).to.be.greaterThan(0);
      expect({ ...columns, detail: r.detail, request_body: r.request_body, response_body: r.response_body }).to.deep.equal(r);
      expect(decodeRecord(encodeRecord(r))).to.deep.equal(entryOf(r));
    }
  });

  it('keeps each record its own bytes across slabs, and gives one too big for a slab a buffer of its own', () => {
    const big = 'x'.repeat(300 * 1024);
    const many = Array.from({ length: 400 }, (_, i) => ({ ...recordFromEntry(syntheticEntry({ id: `m${i}`, ts: T0 + i })), request_body: i % 100 === 7 ? big : `body ${i} ✓` }));
    const encoded = many.map(encodeRecord);
    for (let i = 0; i < many.length; i++) expect(decodeRecord(encoded[i]!)).to.deep.equal(entryOf(many[i]!));
    expect(encoded[7]!.encoded.buffer).not.to.equal(encoded[6]!.encoded.buffer);
  });

  it('writes a full slab over only once every record carved from it is released', () => {
    const [r] = records();
    const body = 'y'.repeat(40 * 1024);
    const record = { ...r!, request_body: body };
    // Fills slabs until one is left full; its records are then released but one.
    const first = encodeRecord(record);
    const held: EncodedRecord[] = [first];
    while (held[held.length - 1]!.encoded.buffer === first.encoded.buffer) held.push(encodeRecord(record));
    const inFirst = held.slice(0, -1);
    releaseRecords(inFirst.slice(1));
    const expected = entryOf(record);
    // The slab still has a record outstanding: slabs filled meanwhile are new memory.
    const later = Array.from({ length: 30 }, () => encodeRecord(record));
    expect(later.every((e) => e.encoded.buffer !== first.encoded.buffer)).to.equal(true);
    expect(decodeRecord(first)).to.deep.equal(expected);
    // Released, the slab is reused: among the next slabs (the free list holds up to 8) is that memory.
    releaseRecords([first, ...later]);
    const next = Array.from({ length: 80 }, () => encodeRecord(record));
    expect(next.some((e) => e.encoded.buffer === first.encoded.buffer)).to.equal(true);
    for (const e of next) expect(decodeRecord(e)).to.deep.equal(expected);
    releaseRecords([...held.slice(-1), ...next]);
  });

  it('ignores releasing bytes no slab gave', () => {
    const [r] = records();
    const record = { ...r!, request_body: 'z'.repeat(40 * 1024) };
    const first = encodeRecord(record);
    const held: EncodedRecord[] = [first];
    while (held[held.length - 1]!.encoded.buffer === first.encoded.buffer) held.push(encodeRecord(record));
    // Every record of the full slab released but the first, and a copy of the first's bytes.
    releaseRecords([{ ...first, encoded: Buffer.from(first.encoded) }, ...held.slice(1, -1)]);
    const later = Array.from({ length: 80 }, () => encodeRecord(record));
    expect(later.every((e) => e.encoded.buffer !== first.encoded.buffer)).to.equal(true);
    expect(decodeRecord(first)).to.deep.equal(entryOf(record));
    releaseRecords([first, ...held.slice(-1), ...later]);
  });

  it('spills an encoded record as the whole entry, as it spills any other', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-segment-record-'));
    try {
      const spill = new SpillFile(dir);
      const [r] = records();
      await spill.append([encodeRecord(r!)]);
      await spill.idle();
      const lines = readFileSync(spill.path, 'utf8').trim().split('\n');
      expect(lines.map((l) => JSON.parse(l) as AuditEntry)).to.deep.equal([entryOf(r!)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
