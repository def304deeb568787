// A file's text, imported with `?raw`: bundled as a string by this package's tsup config (and by
// Vite, for the tests that run the sources).
declare module '*?raw' {
  const text: string;
  export default text;
}
