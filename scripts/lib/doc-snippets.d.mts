/** The text between `// #region name` and `// #endregion name` in a file (relative to the repository root), dedented. */
export function region(file: string, name: string): string;
/** The code an `<!-- example: file#region… -->` marker stands for: its regions, in order, a blank line apart. */
export function exampleCode(marker: string): string;
