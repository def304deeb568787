/**
 * The public status page: the status snapshot as one HTML document, written from strings so that
 * core stays free of any runtime's file or template API. It works with JavaScript off; a short
 * inline script only shows times in the reader's time zone and refreshes the page once a minute
 * (spec, "Limits", Status API: clients poll at most once per minute). No external request: the CSS
 * and script are inline and allowed by hash in the page's Content-Security-Policy, the favicon is
 * an empty `data:` URL, and service logos are not shown (they would be requests to other hosts).
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import type { MaintenanceView, ServiceStatus, ServiceView, StatusSnapshot } from './types.js';

/** Where the status app serves the page (and at `/` when it is served alone). */
export const STATUS_PAGE_PATH = '/status';

const DAY_MS = 86_400_000;
const DAYS = 90;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escapes text for HTML element content and quoted attribute values (the five characters of
 * https://html.spec.whatwg.org/multipage/syntax.html#character-references that can end either).
 * Five replacements do not need a library.
 */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** An `href` for a configured URL: only http(s) and paths, so a `javascript:` URL in configuration never becomes a link. */
function safeHref(url: string): string | undefined {
  return /^(https?:\/\/|\/(?!\/))/i.test(url) ? escapeHtml(url) : undefined;
}

const STATE_LABELS: Record<ServiceStatus, string> = {
  operational: 'Operational',
  degraded: 'Degraded performance',
  down: 'Down',
  unknown: 'Unknown',
  maintenance: 'Under maintenance',
};

const STYLE = `
:root{color-scheme:light dark;--bg:#f6f8fa;--card:#fff;--text:#1f2328;--muted:#59636e;--line:#d1d9e0;
--up:#1a7f37;--degraded:#9a6700;--down:#cf222e;--maintenance:#0969da;--unknown:#59636e;--none:#d1d9e0;
--up-bar:#2da44e;--degraded-bar:#d4a72c;--down-bar:#cf222e}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--card:#151b23;--text:#e6edf3;--muted:#9198a1;--line:#3d444d;
--up:#3fb950;--degraded:#d29922;--down:#f85149;--maintenance:#4493f8;--unknown:#9198a1;--none:#3d444d;
--up-bar:#2ea043;--degraded-bar:#bb8009;--down-bar:#da3633}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main,header,footer{max-width:56rem;margin:0 auto;padding:0 1rem}
header{padding-top:1.5rem}
h1{font-size:1.6rem;margin:0 0 .75rem}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
h3{font-size:1rem;margin:0}
a{color:var(--maintenance)}
.summary,.banner,.card{border:1px solid var(--line);border-radius:.5rem;background:var(--card);padding:.75rem 1rem;margin:.75rem 0}
.summary{font-weight:600;font-size:1.1rem;border-left-width:.4rem}
.summary.s-up{border-left-color:var(--up-bar)}.summary.s-degraded{border-left-color:var(--degraded-bar)}
.summary.s-down{border-left-color:var(--down-bar)}.summary.s-maintenance{border-left-color:var(--maintenance)}
.summary.s-unknown{border-left-color:var(--unknown)}
.banner{border:2px solid var(--down);font-weight:600}
.muted,.meta{color:var(--muted);font-size:.9rem}
.head{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.25rem 1rem;align-items:baseline}
.state{font-weight:600;font-size:.95rem}
.state.s-operational{color:var(--up)}.state.s-degraded{color:var(--degraded)}.state.s-down{color:var(--down)}
.state.s-maintenance{color:var(--maintenance)}.state.s-unknown{color:var(--unknown)}
.meta{margin:.25rem 0 .5rem}
.bars{position:relative;display:flex;gap:1px;list-style:none;margin:0;padding:0;height:2.25rem}
.bar{flex:1 1 0;min-width:0;border-radius:1px;background:var(--up-bar)}
.bar.degraded{background:var(--degraded-bar)}.bar.down{background:var(--down-bar)}.bar.none{background:var(--none)}
.bar:hover,.bar:focus{outline:2px solid var(--text);outline-offset:1px}
.tip{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.bar:hover .tip,.bar:focus .tip{z-index:1;left:0;top:calc(100% + .35rem);width:auto;height:auto;clip-path:none;overflow:visible;
white-space:normal;padding:.25rem .5rem;border-radius:.25rem;background:var(--text);color:var(--bg);font-size:.85rem}
.axis{display:flex;justify-content:space-between;color:var(--muted);font-size:.8rem;margin-top:.25rem}
.maintenance{margin:.5rem 0 0;font-size:.9rem}
ul.notices{list-style:none;padding:0;margin:0}
ul.notices li{border:1px solid var(--line);border-left:.4rem solid var(--maintenance);border-radius:.5rem;background:var(--card);padding:.75rem 1rem;margin:.5rem 0}
ul.notices p{margin:.15rem 0}
footer{padding-bottom:2rem}
@media (min-width:40rem){.bars{gap:2px}h1{font-size:2rem}}
`;

// Shows `<time data-local>` in the reader's time zone, and every minute swaps in the newest page
// (the HTTP cache answers within its 30 s; spec, "Limits", Status API).
const SCRIPT = `(()=>{const f=new Intl.DateTimeFormat(undefined,{year:'numeric',month:'short',day:'numeric',hour:'2-digit',minute:'2-digit',timeZoneName:'short'});
const local=()=>{for(const t of document.querySelectorAll('time[data-local]'))t.textContent=f.format(new Date(t.dateTime));
const z=document.getElementById('tz');if(z)z.textContent='Times are in your time zone ('+f.resolvedOptions().timeZone+').';};
local();setInterval(async()=>{try{const r=await fetch(location.href);if(!r.ok)return;
const m=new DOMParser().parseFromString(await r.text(),'text/html').querySelector('main');if(m){document.querySelector('main').replaceWith(m);local();}}catch{}},60000);})();`;

function hashOf(text: string): string {
  let binary = '';
  for (const byte of sha256(new TextEncoder().encode(text))) binary += String.fromCharCode(byte);
  return `'sha256-${btoa(binary)}'`;
}

/**
 * The page's Content-Security-Policy: its own inline style and script by hash, requests to its
 * own origin only (the script's refresh), the empty `data:` favicon, nothing else.
 */
export const STATUS_PAGE_CSP = [
  "default-src 'none'",
  `style-src ${hashOf(STYLE)}`,
  `script-src ${hashOf(SCRIPT)}`,
  "connect-src 'self'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** `2026-01-10T12:00:00.000Z` as `2026-01-10 12:00 UTC`, the text shown before the script localizes it. */
function utcText(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

function time(iso: string): string {
  return `<time data-local datetime="${escapeHtml(iso)}">${escapeHtml(utcText(iso))}</time>`;
}

/** A duration in the largest unit that keeps it readable: `40 s`, `12 min`, `5 h`, `3 days`. */
function toAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 172_800) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86_400)} days`;
}

function minutes(n: number): string {
  return `${n} min`;
}

/** The overall line: the worst state any service is in. */
function toSummary(services: readonly ServiceView[]): { css: string; text: string } {
  const any = (status: ServiceStatus) => services.some((service) => service.status === status);
  if (services.length === 0) return { css: 'unknown', text: 'No services are monitored' };
  if (any('down')) return { css: 'down', text: 'Some services are down' };
  if (any('degraded')) return { css: 'degraded', text: 'Some services are degraded' };
  if (any('maintenance')) return { css: 'maintenance', text: 'Maintenance in progress' };
  if (any('unknown')) return { css: 'unknown', text: 'The state of some services is unknown' };
  return { css: 'up', text: 'All services operational' };
}

/** The 90 UTC days of the view, oldest first, as `YYYY-MM-DD` (spec: today included). */
function toDays(generatedAt: number): string[] {
  const today = Math.floor(generatedAt / DAY_MS) * DAY_MS;
  return Array.from({ length: DAYS }, (_, i) => new Date(today - (DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/**
 * Uptime over the 90-day view: the share of its time (from the first day's midnight UTC to the
 * snapshot) not spent down. Rounded down, so any outage shows below 100 %.
 */
function toUptime(service: ServiceView, generatedAt: number): string {
  if (service.last_check_at === null) return 'No checks yet';
  const from = Math.floor(generatedAt / DAY_MS) * DAY_MS - (DAYS - 1) * DAY_MS;
  const total = (generatedAt - from) / 60_000;
  const share = total > 0 ? Math.max(0, 1 - service.outage_minutes_90d / total) : 1;
  return `${(Math.floor(share * 10_000) / 100).toFixed(2)} % uptime`;
}

function renderBars(service: ServiceView, days: readonly string[]): string {
  const noData = service.last_check_at === null;
  const bars = days.map((day) => {
    const down = service.daily_outage_minutes_90d[day] ?? 0;
    const degraded = service.daily_degraded_minutes_90d[day] ?? 0;
    const css = noData ? 'none' : down > 0 ? 'down' : degraded > 0 ? 'degraded' : 'up';
    const parts = [];
    if (down > 0) parts.push(`${minutes(down)} outage`);
    if (degraded > 0) parts.push(`${minutes(degraded)} degraded`);
    const text = noData ? 'no data' : parts.length > 0 ? parts.join(', ') : 'no outage';
    return `<li class="bar ${css}" tabindex="0" data-day="${day}"><span class="tip">${day}: ${text}</span></li>`;
  });
  return bars.join('');
}

function serviceName(snapshot: StatusSnapshot, id: string): string {
  if (id === 'all') return 'All services';
  return snapshot.services.find((service) => service.id === id)?.name ?? id;
}

function renderService(service: ServiceView, index: number, days: readonly string[], generatedAt: number): string {
  const href = safeHref(service.homepage_url);
  const name = escapeHtml(service.name);
  const id = `service-${index}`;
  const totals = `${toUptime(service, generatedAt)} over 90 days · ${minutes(service.outage_minutes_90d)} outage · ${minutes(service.degraded_minutes_90d)} degraded`;
  const active = service.active_maintenance;
  return `<section class="card service" aria-labelledby="${id}" data-service="${escapeHtml(service.id)}">
<div class="head"><h3 id="${id}">${href ? `<a href="${href}">${name}</a>` : name}</h3><span class="state s-${service.status}">${STATE_LABELS[service.status]}</span></div>
<p class="meta">${totals}</p>
<ol class="bars" aria-label="${name}: daily outage and degraded minutes, last 90 UTC days, oldest first">${renderBars(service, days)}</ol>
<div class="axis" aria-hidden="true"><span>90 days ago</span><span>Today (UTC)</span></div>
${active ? `<p class="maintenance">Maintenance: ${escapeHtml(active.title)}, until ${time(active.ends_at)}</p>` : ''}
</section>`;
}

function renderMaintenance(snapshot: StatusSnapshot, record: MaintenanceView): string {
  return `<li class="m-${record.state}" data-maintenance="${escapeHtml(record.id)}">
<p><strong>${escapeHtml(record.title)}</strong> · ${escapeHtml(record.status)}</p>
<p class="muted">${escapeHtml(serviceName(snapshot, record.service_id))}: ${time(record.starts_at)} to ${time(record.ends_at)}</p>
</li>`;
}

/** The checker's freshness: the stale banner, or when the latest check ran. */
function renderChecker(snapshot: StatusSnapshot, generatedAt: number): string {
  const { checker } = snapshot;
  const last = checker.last_check_at;
  const age = last === null ? undefined : toAge(generatedAt - Date.parse(last));
  const line = `<p class="muted" id="checked">${age === undefined ? 'No check has run yet.' : `Last checked ${age} ago.`} Updated ${time(snapshot.generated_at)}.</p>`;
  if (checker.healthy) return line;
  const why =
    last === null
      ? 'No check has completed yet, so the state of every service is unknown.'
      : `The checker has not reported for ${age} (it should at least every ${toAge(checker.stale_after_seconds * 1000)}), so the states below may be out of date.`;
  return `<div class="banner" role="alert" id="stale">Status checks are stale. ${why}</div>${line}`;
}

/**
 * Renders the status page from a snapshot: an overall line, the checker's freshness (with a banner
 * when it is stale), active and scheduled maintenance, then each service's state, 90 daily bars
 * and uptime. Every configured string is escaped; URLs become links only when they are http(s).
 * @param snapshot - The snapshot, as `GET /api/status` serves it.
 * @returns The HTML document.
 * @example
 * ```ts
 * const html = toStatusPage(await statusApp.snapshot());
 * ```
 */
export function toStatusPage(snapshot: StatusSnapshot): string {
  const generatedAt = Date.parse(snapshot.generated_at);
  const days = toDays(generatedAt);
  const summary = toSummary(snapshot.services);
  const title = escapeHtml(snapshot.page.name);
  const home = safeHref(snapshot.page.url);
  const active = snapshot.scheduled_maintenances.filter((m) => m.state === 'active');
  const scheduled = snapshot.scheduled_maintenances.filter((m) => m.state === 'scheduled');
  const list = (records: MaintenanceView[]) => `<ul class="notices">${records.map((m) => renderMaintenance(snapshot, m)).join('')}</ul>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="alternate" type="application/json" href="api/status">
<style>${STYLE}</style>
</head>
<body>
<header><h1>${home ? `<a href="${home}">${title}</a>` : title}</h1></header>
<main>
<p class="summary s-${summary.css}" id="summary">${summary.text}</p>
${renderChecker(snapshot, generatedAt)}
${active.length > 0 ? `<section aria-labelledby="active-h"><h2 id="active-h">Maintenance in progress</h2>${list(active)}</section>` : ''}
${scheduled.length > 0 ? `<section aria-labelledby="scheduled-h"><h2 id="scheduled-h">Scheduled maintenance</h2>${list(scheduled)}</section>` : ''}
<section aria-labelledby="services-h"><h2 id="services-h">Services</h2>
${snapshot.services.map((service, i) => renderService(service, i, days, generatedAt)).join('\n')}
</section>
</main>
<footer><p class="muted"><span id="tz">Times are in UTC.</span> Each bar is one UTC day: green without outage, amber with degraded minutes, red with outage minutes (days with under five minutes of outage show none), grey while a service has no check yet. <a href="api/status">This status as JSON</a>.</p></footer>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
