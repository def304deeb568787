import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DroppedFile } from '@catalogue-api/core/upstream';
import { createFolderFileDrop } from '../src/file-drop.js';

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'c-upstream-drop-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function values(file: DroppedFile): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const record of file.records()) out.push(record.value ?? record.error);
  return out;
}

describe('createFolderFileDrop', () => {
  it('applies each file in the folder once, in name order, and again when it is replaced', async () => {
    await writeFile(join(folder, 'b.ndjson'), '{"mal_id":2}\n');
    await writeFile(join(folder, 'a.jsonl'), '{"mal_id":1}\n{"mal_id":11}\n');
    await writeFile(join(folder, 'notes.txt'), 'not a drop');
    await writeFile(join(folder, '.partial.ndjson'), '{"mal_id":9');
    const applied: Array<{ name: string; path?: string; values: unknown[] }> = [];
    const drop = createFolderFileDrop({ folder, apply: async (file) => void applied.push({ name: file.name, path: file.path, values: await values(file) }) });

    const first = await drop.check();
    expect(first.applied).toEqual(['a.jsonl', 'b.ndjson']);
    expect(applied).toEqual([
      { name: 'a.jsonl', path: join(folder, 'a.jsonl'), values: [{ mal_id: 1 }, { mal_id: 11 }] },
      { name: 'b.ndjson', path: join(folder, 'b.ndjson'), values: [{ mal_id: 2 }] },
    ]);

    const second = await drop.check(first.cursor);
    expect(second).toMatchObject({ applied: [], unchanged: ['a.jsonl', 'b.ndjson'], failed: [] });

    await writeFile(join(folder, 'b.ndjson'), '{"mal_id":2}\n{"mal_id":3}\n');
    const third = await drop.check(second.cursor);
    expect(third.applied).toEqual(['b.ndjson']);
    expect(applied.at(-1)!.values).toEqual([{ mal_id: 2 }, { mal_id: 3 }]);

    // Same size, a new modification time: a new version too.
    await utimes(join(folder, 'a.jsonl'), new Date(), new Date(Date.now() + 60_000));
    expect((await drop.check(third.cursor)).applied).toEqual(['a.jsonl']);
  });

  it('keeps a file whose apply failed for the next check, and forgets files that are gone', async () => {
    await writeFile(join(folder, 'a.ndjson'), '{"mal_id":1}\n');
    await writeFile(join(folder, 'b.ndjson'), '{"mal_id":2}\n');
    let fail = true;
    const drop = createFolderFileDrop({
      folder,
      apply: async (file) => {
        if (fail && file.name === 'b.ndjson') throw new Error('store down');
      },
    });
    const first = await drop.check();
    expect(first.applied).toEqual(['a.ndjson']);
    expect(first.failed).toEqual([{ name: 'b.ndjson', reason: 'store down' }]);
    fail = false;
    const second = await drop.check(first.cursor);
    expect(second.applied).toEqual(['b.ndjson']);
    await rm(join(folder, 'a.ndjson'));
    const third = await drop.check(second.cursor);
    expect(Object.keys(JSON.parse(third.cursor))).toEqual(['b.ndjson']);
  });
});
