/**
 * Types for the parts of `@mateoaranda/jikanjs` (1.x) the docs' examples use: the package ships
 * JavaScript only (its `index.js` exports one `JikanAPI` object, `lib/jikan.js`).
 */
declare module '@mateoaranda/jikanjs' {
  /** A response body as Jikan v4 sends it; the package does not type it. */
  interface JikanBody {
    data: any;
    pagination?: unknown;
  }
  type UrlParts = Array<string | number | undefined>;
  type Query = Record<string, unknown>;
  /** `lib/util/Request.js`: builds the URL and sends it (always over https). */
  interface JikanjsRequest {
    send(urlParts: UrlParts, parameters?: Query, mal?: boolean): Promise<any>;
    urlBuilder(urlParts: UrlParts, parameters?: Query, mal?: boolean): string;
  }
  /** `lib/util/Settings.js`: one base URL for the whole process. */
  interface JikanjsSettings {
    setBaseURL(baseURL: string, version?: number): void;
    getBaseURL(): URL;
    version: number;
  }
  const jikanjs: {
    settings: JikanjsSettings;
    request: JikanjsRequest;
    loadAnime(id: number, request?: string, parameters?: Query): Promise<JikanBody>;
    loadTop(type: string, page?: number, subtype?: string, filter?: string): Promise<JikanBody>;
    loadSeason(year: number, season: string, page?: number): Promise<JikanBody>;
    search(type: string, query: string, limit?: number, parameters?: Query): Promise<JikanBody>;
  };
  export default jikanjs;
}
