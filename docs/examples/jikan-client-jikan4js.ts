/**
 * `jikan4.js` (1.x) pointed at this API, and the calls a Jikan user already makes, unchanged.
 * Shown in docs/migrating-from-jikan.md; docs/examples/jikan-clients.test.ts runs it against the
 * Node example server.
 * @module
 */
// #region client
import { Client } from 'jikan4.js';

/**
 * A jikan4.js client on this API, e.g. `http://127.0.0.1:3000/v1` or `https://api.example.org/v1`.
 * @param baseUrl - The API's base URL, `/v1` included.
 */
export function createJikan4Client(baseUrl: string): Client {
  const url = new URL(baseUrl);
  return new Client({
    host: url.host, // host[:port]
    baseUri: url.pathname.replace(/^\/|\/$/g, ''), // 'v1' (its default is 'v4')
    secure: url.protocol === 'https:', // its default is true, whatever its docs say
    // It waits this long between any two requests (default 1200 ms, for Jikan's limits);
    // this API's public tier allows 120 a minute.
    dataRateLimit: 500,
    // Its disk cache (node_modules/jikan4.js/.Jikan unless `dataPath` says otherwise) keys answers
    // by path and query, not host: answers cached from api.jikan.moe would be served as this API's.
    disableCaching: true,
  });
}
// #endregion client

// #region calls
/**
 * A search, Naruto (id 20) in short and in full, its characters, the top list and Fall 2002.
 * @param jikan - A client from {@link createJikan4Client}.
 */
export async function tourWithJikan4(jikan: Client) {
  const search = await jikan.anime.search('naruto');
  const naruto = await jikan.anime.get(20); // undefined on 404
  const full = await jikan.anime.getFull(20);
  const characters = (await jikan.anime.getCharacters(20)) ?? [];
  const top = await jikan.top.listAnime();
  const season = await jikan.seasons.get('Fall', 2002);
  return {
    found: search.map((anime) => anime.title.default),
    title: naruto?.title.default,
    openings: full?.themeSongs.openings ?? [],
    characters: characters.map((entry) => entry.character.name),
    ranks: top.map((anime) => anime.rank),
    season: season.map((anime) => anime.id),
  };
}
// #endregion calls
