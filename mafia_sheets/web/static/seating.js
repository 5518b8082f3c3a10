// The seating form: a roster (or a count), tables and rounds in; the schedule, its figures
// and the downloads out. Uses app.js's helpers ($, t, fmt, el, state, filenameFrom). Every
// piece of user data goes into the page with textContent.
"use strict";

const seating = { roster: null, reply: null };

function seatForm(extra = {}) {
  const data = new FormData();
  if (seating.roster) data.append("files", seating.roster, seating.roster.name);
  const fields = {
    players: $("seat-players").value,
    tables: $("seat-tables").value,
    rounds: $("seat-rounds").value,
    seed: seating.reply ? String(seating.reply.figures.seed) : $("seat-seed").value,
    ...extra,
  };
  for (const [key, value] of Object.entries(fields)) data.append(key, value || "");
  return data;
}

function seatError(text) {
  $("seat-error").textContent = text || "";
  $("seat-error").hidden = !text;
}

async function seatRequest(path, extra) {
  const reply = await fetch(`${path}?lang=${state.lang}`, { method: "POST", body: seatForm(extra) });
  if (!reply.ok) {
    const body = await reply.json().catch(() => ({ error: `${t("network")} (HTTP ${reply.status})` }));
    throw new Error(body.error);
  }
  return reply;
}

async function seatThem(event) {
  event.preventDefault();
  seatError("");
  seating.reply = null;
  $("seat-go").disabled = true;
  try {
    seating.reply = await (await seatRequest("/api/seat", {})).json();
    renderSeating();
  } catch (error) {
    seatError(error.message || t("network"));
  } finally {
    $("seat-go").disabled = false;
  }
}

async function seatDownload(path, fallback, extra) {
  seatError("");
  try {
    const reply = await seatRequest(path, extra);
    const url = URL.createObjectURL(await reply.blob());
    const link = el("a", { href: url, download: filenameFrom(reply.headers.get("Content-Disposition"), fallback) });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  } catch (error) {
    seatError(error.message || t("network"));
  }
}

function renderSeating() {
  const reply = seating.reply;
  $("seat-result").hidden = !reply;
  if (!reply) return;
  $("seat-seed-line").textContent = fmt("seatSeedLine", { seed: reply.figures.seed });
  $("seat-figures").replaceChildren(...reply.text.map((line) => el("li", {}, line.trim())));
  const rounds = reply.rounds.map((round) => {
    const rows = round.tables.map((table) =>
      el("tr", {}, el("th", { scope: "row" }, fmt("seatTable", { n: table.table })),
        ...table.players.map((name) => el("td", {}, name))));
    const head = el("tr", {}, el("th", {}, ""), ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => el("th", { scope: "col" }, String(n))));
    const out = round.out.length ? el("p", { class: "hint" }, fmt("seatOut", { names: round.out.join(", ") })) : null;
    return el("div", { class: "seat-round" },
      el("h3", {}, fmt("seatRound", { n: round.round })),
      el("div", { class: "table-wrap" }, el("table", { class: "seat-table" }, el("thead", {}, head), el("tbody", {}, ...rows))),
      out);
  });
  $("seat-rounds-view").replaceChildren(...rounds);
}

function wireSeating() {
  const input = $("seat-roster");
  const zone = $("seat-drop");
  const take = (file) => {
    seating.roster = file || null;
    seating.reply = null;
    $("seat-roster-name").textContent = file ? fmt("seatRoster", { name: file.name }) : "";
    renderSeating();
  };
  input.addEventListener("change", () => { take(input.files[0]); input.value = ""; });
  // A roster dropped here is the seating's, not a protocol for the page above.
  zone.addEventListener("dragover", (e) => { e.preventDefault(); e.stopPropagation(); });
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    e.stopPropagation();
    $("drop").classList.remove("over");
    const files = e.dataTransfer ? [...e.dataTransfer.files] : [];
    if (files.length) take(files[0]);
  });
  for (const id of ["seat-players", "seat-tables", "seat-rounds", "seat-seed"]) {
    $(id).addEventListener("input", () => { seating.reply = null; renderSeating(); });
  }
  $("seat-form").addEventListener("submit", seatThem);
  $("seat-plan").addEventListener("click", () => seatDownload("/api/seat/plan.xlsx", "seating-plan.xlsx", {}));
  $("seat-protocol").addEventListener("click", () =>
    seatDownload("/api/seat/protocol.xlsx", "protocol.xlsx", { layout: $("seat-layout").value }));
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.addEventListener("click", () => { if (seating.reply) seatThem(new Event("submit")); });
  }
}

document.addEventListener("DOMContentLoaded", () => {
  // app.js loads the labels first; wire once the page says it is ready
  const wait = () => (document.body.dataset.ready === "true" ? wireSeating() : setTimeout(wait, 20));
  wait();
});
