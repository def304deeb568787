/**
 * A file drop in a folder: the files in the importer's format (`.ndjson`, `.jsonl`, `.json`) placed
 * there, each applied once in name order. A file's version is its size and modification time, so
 * a file replaced by a new one is applied again; what was applied is kept in a cursor the caller
 * stores (the same cursor format as the URL form in `@catalogue-api/core`).
 * @module
 */
import { readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { checkDroppedFiles, type ApplyDroppedFile, type FileDrop } from '@catalogue-api/core/upstream';
import { readRecords, type ReadOptions } from './import.js';

/** The extensions of files a folder drop reads. */
const DROP_EXTENSIONS: ReadonlySet<string> = new Set(['.ndjson', '.jsonl', '.json']);

/** Options of {@link createFolderFileDrop}. */
export interface FolderFileDropOptions {
  /** The folder watched. */
  folder: string;
  /** Applies one file; `file.path` is where it is, for the importer. */
  apply: ApplyDroppedFile;
  /** Limits of a line and of a JSON document, as the importer reads them. */
  read?: ReadOptions;
}

/**
 * A file drop in a folder: each check lists the folder (files only, dot-files and partial
 * downloads ignored) and applies every file whose name and size/mtime the cursor does not hold.
 * @param options - The folder and the apply step.
 * @returns The file drop; each file it hands to `apply` also has a `path`.
 * @example
 * ```ts
 * const drop = createFolderFileDrop({ folder: '/srv/drop', apply: async (file) => importFile(file.path) });
 * const result = await drop.check(await state.getCursor('file-drop'));
 * await state.setCursor('file-drop', result.cursor);
 * ```
 */
export function createFolderFileDrop(options: FolderFileDropOptions): FileDrop {
  return {
    async check(cursor, signal) {
      const names = (await readdir(options.folder, { withFileTypes: true }))
        .filter((d) => d.isFile() && !d.name.startsWith('.') && DROP_EXTENSIONS.has(extname(d.name).toLowerCase()))
        .map((d) => d.name)
        .sort();
      const open = async (name: string) => {
        const path = join(options.folder, name);
        let version: string;
        try {
          const info = await stat(path);
          version = `${info.size}:${Math.trunc(info.mtimeMs)}`;
        } catch (error) {
          // Removed between the listing and now: nothing to apply.
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone' as const;
          throw error;
        }
        return { name, version, path, records: () => readRecords(path, options.read) };
      };
      return checkDroppedFiles(cursor, names, open, options.apply, signal);
    },
  };
}
