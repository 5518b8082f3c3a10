// The drag-and-drop page: upload workbooks, show findings and standings, download workbooks.
// No build step and no network beyond this server. Every piece of user data is put into the
// page with textContent (cell values come from other people's files).
"use strict";

// Every word of the page comes from the server's catalogue (/api/labels), the same one the
// results workbook is written from; `{name}` fields are filled in by fmt().
let TEXT = null;

const state = { lang: "ru", files: [], response: null, limits: null, xhr: null, tab: "standings", card: null };
const $ = (id) => document.getElementById(id);
const t = (key) => TEXT[state.lang][key];
// A number's decimal point as the language writes it (a comma in Russian).
const decimal = (text) => text.replace(".", t("decimalMark"));
const fmt = (key, params) => t(key).replace(/\{(\w+)\}/g, (_, name) => String(params[name]));

// Build an element; strings become text nodes, never HTML.
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "onclick") node.addEventListener("click", value);
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

// Two decimals, half up (away from zero), on the decimal value the server sent.
function formatNumber(value) {
  const scaled = Math.round(Math.abs(value) * 10000); // the JSON carries 4 decimals
  const cents = Math.floor((scaled + 50) / 100);
  const text = `${value < 0 && cents ? "−" : ""}${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
  return decimal(text);
}

function megabytes(bytes) {
  const text = String(Number((bytes / 1048576).toPrecision(3)));
  return decimal(text);
}

// ---- static labels and language ----------------------------------------------------------

function applyLanguage() {
  document.documentElement.lang = state.lang;
  for (const node of document.querySelectorAll("[data-i18n]")) {
    node.textContent = t(node.dataset.i18n);
  }
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === state.lang));
  }
  if (state.limits) {
    $("limits").textContent = fmt("limits", { file: megabytes(state.limits.max_file_bytes), total: megabytes(state.limits.max_total_bytes) });
  }
  renderResults();
}

function setLanguage(lang) {
  if (lang === state.lang || !TEXT[lang]) return;
  state.lang = lang;
  try { localStorage.setItem("mafia-sheets-lang", lang); } catch (_) { /* private mode */ }
  applyLanguage();
  // Findings are worded by the server: ask again in the new language.
  if (state.files.length) upload(state.files, { quiet: true });
}

// ---- status line -------------------------------------------------------------------------

function showStatus(text, percent) {
  $("status").hidden = false;
  $("status-text").textContent = text;
  const bar = $("progress");
  if (percent === null) bar.removeAttribute("value");
  else bar.value = percent;
}

function hideStatus() {
  $("status").hidden = true;
}

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = !text;
}

// ---- talking to the server ---------------------------------------------------------------

function formData(files, extra = {}) {
  const data = new FormData();
  for (const file of files) data.append("files", file, file.name);
  for (const [key, value] of Object.entries(extra)) data.append(key, value);
  return data;
}

// Refuse what the server would refuse anyway, before sending megabytes for nothing.
function preflight(files) {
  if (!state.limits) return "";
  let total = 0;
  for (const file of files) {
    total += file.size;
    if (file.size > state.limits.max_file_bytes) {
      return fmt("tooBig", { name: file.name, mb: megabytes(state.limits.max_file_bytes) });
    }
  }
  return total > state.limits.max_total_bytes ? fmt("tooBigTotal", { mb: megabytes(state.limits.max_total_bytes) }) : "";
}

function parseReply(xhr) {
  try {
    return JSON.parse(xhr.responseText);
  } catch (_) {
    return { ok: false, error: `${t("network")} (HTTP ${xhr.status})` };
  }
}

function upload(files, { quiet = false } = {}) {
  if (state.xhr) state.xhr.abort(); // only the latest drop (or language) counts
  const problem = preflight(files);
  if (problem) {
    state.files = [];
    state.response = null;
    renderResults();
    showError(problem);
    return;
  }
  state.files = files;
  showError("");
  if (!quiet) {
    state.response = null;
    renderResults();
  }
  const xhr = new XMLHttpRequest();
  state.xhr = xhr;
  xhr.open("POST", `/api/rate?lang=${state.lang}`);
  xhr.upload.addEventListener("progress", (event) => {
    if (event.lengthComputable) {
      const percent = (100 * event.loaded) / event.total;
      showStatus(fmt("uploading", { p: Math.round(percent) }), percent);
    }
  });
  // The body is on the server: from here on it is the library's work.
  xhr.upload.addEventListener("load", () => showStatus(t("counting"), null));
  xhr.addEventListener("load", () => finish(xhr, parseReply(xhr)));
  xhr.addEventListener("error", () => finish(xhr, { ok: false, error: t("network") }));
  showStatus(quiet ? t("counting") : fmt("uploading", { p: 0 }), quiet ? null : 0);
  xhr.send(formData(files));
}

function finish(xhr, reply) {
  if (xhr !== state.xhr) return; // an answer to an earlier, replaced upload
  state.xhr = null;
  hideStatus();
  state.response = reply.ok ? reply : null;
  showError(reply.ok ? "" : reply.error);
  renderResults();
}

// The download's name from Content-Disposition (RFC 6266): the exact UTF-8 name in
// filename*, else the plain filename, else the fallback. The name is only ever data.
function filenameFrom(disposition, fallback) {
  const star = /filename\*=UTF-8''([^;\s]+)/i.exec(disposition || "");
  if (star) {
    try {
      return decodeURIComponent(star[1]);
    } catch (_) { /* malformed: fall through */ }
  }
  const plain = /filename="([^"]*)"/i.exec(disposition || "");
  return plain && plain[1] ? plain[1] : fallback;
}

// Downloads re-send the same files: the server keeps nothing between requests.
async function download(path, fallbackName, extra = {}) {
  showError("");
  showStatus(t("counting"), null);
  try {
    const token = state.response ? state.response.token : "";
    const reply = await fetch(`${path}?lang=${state.lang}`, {
      method: "POST", body: formData(state.files, { token, ...extra }),
    });
    if (!reply.ok) {
      const body = await reply.json().catch(() => ({ error: `${t("network")} (HTTP ${reply.status})` }));
      showError(body.error);
      return;
    }
    const blob = await reply.blob();
    const url = URL.createObjectURL(blob);
    const link = el("a", { href: url, download: filenameFrom(reply.headers.get("Content-Disposition"), fallbackName) });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  } catch (_) {
    showError(t("network"));
  } finally {
    hideStatus();
  }
}

// ---- rendering ---------------------------------------------------------------------------

function renderResults() {
  const section = $("results");
  const reply = state.response;
  if (!reply) {
    state.card = null;
    section.hidden = true;
    document.title = t("pageTitle");
    return;
  }
  const result = reply.result;
  const name = (result.tournament && result.tournament.name) || t("checkTitle");
  section.hidden = false;
  $("tournament-name").textContent = name;
  document.title = `${name} — ${t("pageTitle")}`;
  $("files-line").textContent = (state.files.length === 1 ? t("filesOne") : fmt("files", { n: state.files.length })) + state.files.map((f) => f.name).join(", ");
  // how each file was read, as the server detected it: «прочитано: бланк на игру, 12 игр»
  $("read-line").textContent = (result.read || []).map((r) => `${r.file}: ${r.text}`).join("; ");
  // what each game sheet or game row gave: «результат ✓, лучший ход —, 6 выбываний …»
  const perGame = (result.read || []).flatMap((r) => r.per_game || []);
  $("read-games").hidden = perGame.length === 0;
  $("read-games-list").replaceChildren(...perGame.map((g) => el("li", {}, g.text)));
  renderNotices(result);
  renderActions(reply);
  renderStandings(result);
  renderRules(reply.rules || []);
  renderStats(result);
  renderCard();
  renderFindings(result.findings || []);
}

function renderNotices(result) {
  const box = $("notices");
  box.replaceChildren();
  if (!result.standings) box.append(el("p", { class: "notice notice-error" }, t("blocked")));
  if (result.provisional) box.append(el("p", { class: "notice notice-warn", id: "provisional" }, t("provisional")));
  if (result.lot_needed) {
    box.append(el("p", { class: "notice notice-warn", id: "lot-needed" }, t("lotNeeded"),
      el("span", { id: "lot-players" }, ` ${lotGroups(result.standings || [])}`)));
  }
}

function renderActions(reply) {
  const box = $("actions");
  box.replaceChildren();
  if (reply.result.standings) {
    box.append(
      el("button", { type: "button", id: "download-results", onclick: () => download("/api/results.xlsx", "results.xlsx") }, t("downloadResults")),
      el("button", { type: "button", id: "download-csv", class: "secondary", onclick: () => download("/api/results.csv", "results.csv") }, t("downloadCsv")),
      el("button", { type: "button", id: "download-mwt", class: "secondary", onclick: () => download("/api/mwt.json", "mwt.json") }, t("downloadMwt")),
      el("button", { type: "button", id: "print", class: "secondary", onclick: () => window.print() }, t("print")),
    );
  }
  if (!reply.annotate) return;
  // One annotated copy per file that has something to mark.
  // Files are matched by position in the upload: the names the server received (reply.files)
  // are what the findings carry, whatever characters the browser had to escape in them.
  const findings = reply.result.findings || [];
  const marked = new Set(findings.map((f) => f.file));
  const names = reply.files || state.files.map((f) => f.name);
  state.files.forEach((file, index) => {
    if (!marked.has(names[index]) && !marked.has(null) && !marked.has(undefined)) return;
    const label = state.files.length === 1 ? t("downloadAnnotated") : fmt("downloadAnnotatedOf", { name: file.name });
    box.append(el("button", {
      type: "button", class: "secondary download-annotated", id: `download-annotated-${index}`,
      onclick: () => download("/api/annotated.xlsx", "annotated.xlsx", { file: String(index) }),
    }, label));
  });
}

function renderStandings(result) {
  const block = $("standings-block");
  block.hidden = !result.standings || (state.tab === "stats" && !!result.stats);
  if (!result.standings) return;
  $("standings-head").replaceChildren(...t("cols").map((c) => el("th", { scope: "col" }, c)));
  const rows = result.standings.map((row) => el("tr", { "data-player": row.player },
    el("td", { class: "place", "data-place": String(row.place) }, row.place_range),
    el("th", { scope: "row", class: "player" }, playerButton(row.player)),
    numberCell(row.total, "total"),
    numberCell(row.win_points, "win_points"),
    numberCell(row.additional, "additional"),
    el("td", { class: "num" }, String(row.games)),
    el("td", { class: "num" }, String(row.wins)),
    el("td", { class: "num wins-don-sheriff" }, String(row.wins_don_sheriff)),
    el("td", { class: "num killed-first-night" }, String(row.killed_first_night)),
    el("td", { class: "decided", "data-decided": row.decided_by }, t("decided")[row.decided_by] || row.decided_by),
  ));
  $("standings").tBodies[0].replaceChildren(...rows);
  renderK(result.k);
  const removed = result.removed || [];
  $("removed").hidden = !removed.length;
  $("removed").textContent = removed.length ? t("removed") + removed.join(", ") : "";
}

// The players who share a place range ("5–6"): they are the ones the lot must separate.
function lotGroups(standings) {
  const groups = new Map();
  for (const row of standings) {
    if (!row.place_range.includes("–")) continue;
    if (!groups.has(row.place_range)) groups.set(row.place_range, []);
    groups.get(row.place_range).push(row.player);
  }
  return [...groups.entries()].map(([range, names]) => `${range}: ${names.join(", ")}`).join("; ");
}

function numberCell(value, key) {
  return el("td", { class: `num ${key}`, "data-value": String(value) }, formatNumber(value));
}

function renderK(k) {
  const items = [[t("kValue"), k.applied ? formatK(k.value) : t("kOff")]];
  items.push([t("heavy"), k.heavy_side ? t(k.heavy_side) : t("heavyNone")]);
  items.push([t("games"), String(k.games)], [t("heavyGames"), String(k.heavy_games)]);
  $("k-summary").replaceChildren(...items.map(([term, value]) => el("div", {}, el("dt", {}, term), el("dd", {}, value))));
}

// The scoring edition and every value in force, as the results' «Сводка» lists them.
function renderRules(lines) {
  $("rules-box").hidden = !lines.length;
  // the edition's name (the first line) stays in sight while the list is folded
  $("rules-edition").textContent = lines.length ? `: ${lines[0].value}` : "";
  $("rules-summary").replaceChildren(...lines.map((line) => el("div", {},
    el("dt", {}, line.item),
    el("dd", {}, typeof line.value === "number" ? formatNumber(line.value) : String(line.value),
      line.note ? el("small", {}, ` (${line.note})`) : ""))));
}

function formatK(value) {
  const text = String(Number(value.toFixed(4)));
  return decimal(text);
}

function renderFindings(findings) {
  const errors = findings.filter((f) => f.severity === "error").length;
  $("counts").textContent = findings.length ? fmt("counts", { e: errors, w: findings.length - errors }) : t("clean");
  // Grouped by file (a season) and game, in the order the library sorted them.
  const groups = new Map();
  for (const finding of findings) {
    const game = finding.game === null || finding.game === undefined ? "" : String(finding.game);
    const key = JSON.stringify([finding.file || "", game]);
    if (!groups.has(key)) groups.set(key, { file: finding.file || "", game, items: [] });
    groups.get(key).items.push(finding);
  }
  $("findings").replaceChildren(...[...groups.values()].map(findingGroup));
}

function findingGroup({ file, game, items }) {
  const season = state.files.length > 1;
  const title = (game === "" ? t("general") : fmt("game", { id: game })) + (file && season ? ` — ${file}` : "");
  const head = el("tr", {}, ...[t("where"), t("severity"), t("message")].map((c) => el("th", { scope: "col" }, c)));
  const rows = items.map((f) => el("tr", { class: `finding finding-${f.severity}`, "data-code": f.code },
    el("td", { class: "where" }, f.cell ? `${f.sheet}!${f.cell}` : f.sheet),
    el("td", { class: "severity" }, t(f.severity === "error" ? "error" : "warning")),
    el("td", { class: "message" },
      el("span", { class: "text" }, f.message),
      f.expected ? el("span", { class: "detail" }, t("expected") + f.expected) : null,
      f.hint ? el("span", { class: "detail" }, t("hint") + f.hint) : null),
  ));
  return el("section", { class: "finding-group", "data-game": game, "data-file": file },
    el("h4", {}, title),
    el("table", { class: "findings" }, el("thead", {}, head), el("tbody", {}, ...rows)));
}

// ---- statistics and player cards ---------------------------------------------------------

function percent(wins, games) {
  if (!games) return "";
  const text = (Math.round((1000 * wins) / games) / 10).toFixed(1);
  return `${decimal(text)} %`;
}

function playerButton(name) {
  return el("button", { type: "button", class: "player-link", "data-player": name,
    "aria-label": fmt("openCard", { name: name }), onclick: () => openCard(name) }, name);
}

function statsByPlayer(result) {
  const out = new Map();
  for (const row of (result.stats && result.stats.players) || []) out.set(row.player, row);
  return out;
}

function openCard(name) {
  state.card = name;
  renderCard();
  const block = $("card-block");
  block.scrollIntoView({ block: "start" });
  $("card-close").focus();
}

function closeCard() {
  const name = state.card;
  state.card = null;
  renderCard();
  const back = document.querySelector(`#standings .player-link[data-player="${CSS.escape(name || "")}"]`);
  if (back) back.focus();
}

function selectTab(tab) {
  state.tab = tab;
  renderResults();
}

function renderTabs(result) {
  const tabs = $("tabs");
  tabs.hidden = !(result.standings && result.stats);
  for (const [id, name] of [["tab-standings", "standings"], ["tab-stats", "stats"]]) {
    $(id).setAttribute("aria-selected", String(state.tab === name));
  }
}

function simpleTable(cls, heads, rows) {
  return el("table", { class: cls },
    el("thead", {}, el("tr", {}, ...heads.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, ...rows.map((cells) => el("tr", {}, ...cells.map((c, i) =>
      (i === 0 ? el("th", { scope: "row" }, c) : el("td", { class: "num" }, c)))))));
}

function renderStats(result) {
  renderTabs(result);
  const block = $("stats-block");
  const stats = result.stats;
  block.hidden = !(result.standings && stats && state.tab === "stats");
  if (block.hidden) return;
  $("stats-head").replaceChildren(el("tr", {}, ...t("statCols").map((c) => el("th", { scope: "col" }, c))));
  const role = (r) => `${r.wins} / ${r.games}`;
  const rows = stats.players.map((p) => el("tr", { "data-player": p.player },
    el("th", { scope: "row", class: "player" }, playerButton(p.player)),
    el("td", { class: "num games" }, String(p.games)),
    el("td", { class: "num wins" }, String(p.wins)),
    el("td", { class: "num pct" }, percent(p.wins, p.games)),
    ...["civilian", "sheriff", "mafia", "don"].map((r) =>
      el("td", { class: `num role-${r}`, "data-games": String(p.by_role[r].games), "data-wins": String(p.by_role[r].wins) }, role(p.by_role[r]))),
    ...["red", "black"].map((c) => el("td", { class: `num team-${c}` }, percent(p.by_team[c].wins, p.by_team[c].games))),
    el("td", { class: "num" }, String(p.killed_first_night)),
    el("td", { class: "num" }, `${p.best_moves.made} (${p.best_moves.three} / ${p.best_moves.two})`),
    el("td", { class: "num" }, String(p.fouls)),
  ));
  $("stats").tBodies[0].replaceChildren(...rows);
  const tour = stats.tournament;
  const seats = Object.entries(tour.by_seat).map(([seat, s]) => [seat, String(s.games), String(s.wins), percent(s.wins, s.games)]);
  $("tournament-stats").replaceChildren(
    el("p", { class: "colour-line" }, fmt("colourLine", { g: tour.games, r: tour.red_wins, b: tour.black_wins, d: tour.draws })),
    el("h4", {}, t("seatTitle")),
    simpleTable("seats", t("seatCols"), seats));
}

function renderCard() {
  const block = $("card-block");
  const reply = state.response;
  const result = reply && reply.result;
  const stats = result ? statsByPlayer(result) : new Map();
  const p = state.card === null ? null : stats.get(state.card);
  document.body.classList.toggle("card-open", !!p);
  block.hidden = !p;
  if (!p) return;
  const standing = (result.standings || []).find((s) => s.player === p.player);
  const place = standing ? standing.place_range : "";
  $("card-title").textContent = place ? fmt("cardTitle", { place, name: p.player })
    : fmt("cardTitleRemoved", { name: p.player });
  const money = (v) => formatNumber(v);
  const totals = standing
    ? [money(standing.total), money(standing.win_points), money(standing.additional)]
    : ["", "", money(p.additional)];
  const games = (reply.cards && reply.cards[p.player]) || [];
  const roles = ["civilian", "sheriff", "mafia", "don"].map((r) => [t("roles")[r], String(p.by_role[r].games),
    String(p.by_role[r].wins), percent(p.by_role[r].wins, p.by_role[r].games), money(p.by_role[r].additional)]);
  for (const c of ["red", "black"]) {
    roles.push([t("roles")[c], String(p.by_team[c].games), String(p.by_team[c].wins), percent(p.by_team[c].wins, p.by_team[c].games), ""]);
  }
  const blank = (v) => (v ? money(v) : "");
  const rows = games.map(([round, table, seat, role, outcome, win, best, award, penalty, total]) =>
    el("tr", { class: `game game-${outcome}` },
      el("td", { class: "num" }, round === null ? "" : String(round)),
      el("td", { class: "num" }, table === null ? "" : String(table)),
      el("td", { class: "num" }, String(seat)),
      el("td", {}, t("roles")[role] || role),
      el("td", { class: "outcome" }, t("outcome")[outcome]),
      el("td", { class: "num" }, blank(win)),
      el("td", { class: "num" }, blank(best)),
      el("td", { class: "num" }, blank(award)),
      el("td", { class: "num" }, blank(penalty)),
      el("td", { class: "num total" }, money(total))));
  $("card-body").replaceChildren(
    simpleTable("card-totals", t("totalsCols"), [[...totals, String(p.games), String(p.wins), percent(p.wins, p.games), String(p.killed_first_night)]]),
    simpleTable("card-roles", t("roleCols"), roles),
    simpleTable("card-extra", t("extraCols"), [[String(p.best_moves.made), String(p.best_moves.three), String(p.best_moves.two),
      String(p.fouls), String(p.fouled_out), String(p.disqualified), `${p.awards.bp} / ${p.awards.bp2} / ${p.awards.bpl}`]]),
    el("table", { class: "card-games" },
      el("thead", {}, el("tr", {}, ...t("gameCols").map((c) => el("th", { scope: "col" }, c)))),
      el("tbody", {}, ...rows)));
}

// ---- wiring ------------------------------------------------------------------------------

function wire() {
  const drop = $("drop");
  const input = $("files");
  // Space opens a focused file input everywhere; Enter only in some browsers. Open on
  // key release, as Space does: a chooser opened on key press may be dismissed by it.
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") e.preventDefault();
  });
  input.addEventListener("keyup", (e) => {
    if (e.key === "Enter") input.click();
  });
  input.addEventListener("change", () => {
    if (input.files.length) upload([...input.files]);
    input.value = ""; // choosing the same file again must upload it again
  });
  // The whole window accepts a drop, so a near miss does not open the file in the browser.
  let depth = 0;
  document.addEventListener("dragenter", (e) => { e.preventDefault(); depth += 1; drop.classList.add("over"); });
  document.addEventListener("dragleave", () => { depth = Math.max(0, depth - 1); if (!depth) drop.classList.remove("over"); });
  document.addEventListener("dragover", (e) => e.preventDefault());
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    depth = 0;
    drop.classList.remove("over");
    const files = e.dataTransfer ? [...e.dataTransfer.files] : [];
    if (files.length) upload(files);
  });
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.addEventListener("click", () => setLanguage(button.dataset.lang));
  }
  $("tab-standings").addEventListener("click", () => selectTab("standings"));
  $("tab-stats").addEventListener("click", () => selectTab("stats"));
  $("card-close").addEventListener("click", closeCard);
  $("card-print").addEventListener("click", () => window.print());
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && state.card !== null) closeCard(); });
}

async function start() {
  TEXT = await (await fetch("/api/labels")).json();
  try {
    const saved = localStorage.getItem("mafia-sheets-lang");
    if (saved && TEXT[saved]) state.lang = saved;
  } catch (_) { /* storage blocked: stay in Russian */ }
  wire();
  applyLanguage();
  try {
    state.limits = await (await fetch("/api/limits")).json();
  } catch (_) {
    state.limits = null; // the server still enforces its limits
  }
  applyLanguage();
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", start);
