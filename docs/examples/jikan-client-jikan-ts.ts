/**
 * `@tutkli/jikan-ts` (3.x) pointed at this API, and the calls a Jikan user already makes, unchanged.
 * Shown in docs/migrating-from-jikan.md; docs/examples/jikan-clients.test.ts runs it against the
 * Node example server.
 * @module
 */
// #region client
import { JikanClient } from '@tutkli/jikan-ts';
import ky from 'ky';

/**
 * A jikan-ts client on this API, e.g. `http://127.0.0.1:3000/v1` or `https://api.example.org/v1`.
 * @param baseUrl - The API's base URL, `/v1` included.
 */
export function createJikanTsClient(baseUrl: string): JikanClient {
  // jikan-ts builds its own ky instance on https://api.jikan.moe/v4 unless it is given one
  // (`kyInstance`, read in its BaseClient). Its paths are relative (`anime/20`), so `prefixUrl`
  // takes any origin, scheme and path prefix. ky's default retry waits out Retry-After on 429 and 503.
  return new JikanClient({ kyInstance: ky.create({ prefixUrl: baseUrl }) });
}
// #endregion client

// #region calls
/**
 * A search, Naruto (id 20) in short and in full, its characters, the top list and Fall 2002.
 * @param jikan - A client from {@link createJikanTsClient}.
 */
export async function tourWithJikanTs(jikan: JikanClient) {
  const search = await jikan.anime.getAnimeSearch({ q: 'naruto' });
  const naruto = await jikan.anime.getAnimeById(20);
  const full = await jikan.anime.getAnimeFullById(20);
  const characters = await jikan.anime.getAnimeCharacters(20);
  const top = await jikan.top.getTopAnime();
  const season = await jikan.seasons.getSeason(2002, 'fall');
  return {
    found: search.data.map((anime) => anime.title),
    title: naruto.data.title,
    openings: full.data.theme?.openings ?? [],
    characters: characters.data.map((entry) => entry.character.name),
    ranks: top.data.map((anime) => anime.rank),
    season: season.data.map((anime) => anime.mal_id),
  };
}
// #endregion calls
