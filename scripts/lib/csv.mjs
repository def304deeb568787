/**
 * The CSV reader of the data builders (the source exports are CSV with quoted, multi-line fields).
 * @module
 */

/**
 * Parses RFC 4180 CSV: quoted fields may hold commas, doubled quotes and line breaks; a leading
 * byte-order mark is skipped, and CRLF and LF both end a row.
 * @param {string} text - The whole file.
 * @returns {string[][]} The rows, each an array of its fields (the header row first).
 */
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
