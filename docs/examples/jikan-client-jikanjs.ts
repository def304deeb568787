/**
 * `@mateoaranda/jikanjs` (1.x) pointed at this API, with the workaround plain http needs, and the
 * calls a Jikan user already makes, unchanged. Shown in docs/migrating-from-jikan.md;
 * docs/examples/jikan-clients.test.ts runs it against the Node example server.
 * @module
 */
// #region client
import jikanjs from '@mateoaranda/jikanjs';

/**
 * Points jikanjs (one object per process) at this API, e.g. `http://127.0.0.1:3000/v1` or
 * `https://api.example.org/v1`.
 * @param baseUrl - The API's base URL: `/v1` at the root of its origin.
 */
export function pointJikanjsAt(baseUrl: string): typeof jikanjs {
  const url = new URL(baseUrl);
  // setBaseURL(url, version) keeps the origin alone and appends /v<version> (default 4).
  jikanjs.settings.setBaseURL(url.origin, 1);
  if (url.protocol === 'http:') {
    // Workaround: its Request.send sets the protocol to https: on every request
    // (lib/util/Request.js), so a plain-http server gets a TLS handshake it cannot answer. Send the
    // same URL with fetch instead, rejecting as the package does, with the body's `error`.
    const { request } = jikanjs;
    request.send = async (urlParts, parameters) => {
      const response = await fetch(request.urlBuilder(urlParts, parameters, false));
      const body = await response.json();
      if (response.status !== 200) throw new Error(body.error);
      return body;
    };
  }
  return jikanjs;
}
// #endregion client

// #region calls
/**
 * A search, Naruto (id 20) in short and in full, its characters, the top list and Fall 2002.
 * @param jikan - jikanjs, after {@link pointJikanjsAt}.
 */
export async function tourWithJikanjs(jikan: typeof jikanjs) {
  const search = await jikan.search('anime', 'naruto');
  const naruto = await jikan.loadAnime(20);
  const full = await jikan.loadAnime(20, 'full');
  const characters = await jikan.loadAnime(20, 'characters');
  const top = await jikan.loadTop('anime');
  const season = await jikan.loadSeason(2002, 'fall');
  return {
    found: search.data.map((anime: { title: string }) => anime.title),
    title: naruto.data.title as string,
    openings: (full.data.theme?.openings ?? []) as string[],
    characters: characters.data.map((entry: { character: { name: string } }) => entry.character.name),
    ranks: top.data.map((anime: { rank: number }) => anime.rank),
    season: season.data.map((anime: { mal_id: number }) => anime.mal_id),
  };
}
// #endregion calls
