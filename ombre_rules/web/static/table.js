// The game screen: one seat's view (or the spectators'), live over a WebSocket; actions go by POST.
import { api, cardEl, carriedText, el, header, humanize, seatLabel, signed, toast } from "./common.js";

const short = (i, you) => (i === you ? "You" : `Seat ${i}`);

const app = document.getElementById("app");
const tableId = location.pathname.split("/")[2];
const token = new URLSearchParams(location.search).get("t") || "";
let busy = false;
let retry = 0;
let current = null;

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${encodeURIComponent(tableId)}?t=${encodeURIComponent(token)}`);
  ws.onmessage = (ev) => { retry = 0; current = JSON.parse(ev.data); render(current); };
  ws.onclose = async () => {
    if (!current) {
      try { await api(`/api/tables/${encodeURIComponent(tableId)}?t=${encodeURIComponent(token)}`); } catch (e) {
        app.replaceChildren(header(), el("main", { class: "page" }, el("h1", {}, "This table cannot be opened"),
          el("pre", { class: "errors", id: "fatal" }, e.message)));
        return;
      }
    }
    setStatus("Connection lost, reconnecting…");
    retry = Math.min(retry + 1, 5);
    setTimeout(connect, 400 * retry);
  };
}

function setStatus(text) {
  const s = document.getElementById("status");
  if (s) s.textContent = text;
}

async function act(action) {
  if (busy) return;
  busy = true;
  document.body.classList.add("busy");
  try {
    await api(`/api/tables/${encodeURIComponent(tableId)}/act`, { json: { token, action } });
  } catch (e) {
    toast(e.message, "error");
  } finally {
    busy = false;
    document.body.classList.remove("busy");
  }
}

async function nextDeal() {
  try { await api(`/api/tables/${encodeURIComponent(tableId)}/next`, { json: { token } }); } catch (e) { toast(e.message, "error"); }
}

const suitOf = (table, name) => table.suits.find((s) => s.name === name);
const suitText = (table, name) => { const s = suitOf(table, name); return s ? `${s.symbol ? s.symbol + " " : ""}${humanize(name)}` : humanize(name); };
const contractText = (table, name) => (name ? table.contracts[name] || humanize(name) : "—");

// An action as the history shows it: "bid NAME", "trumps SYMBOL SUIT", "discard CARD", "draw".
function actionText(table, text) {
  const [verb, arg] = text.split(" ");
  if (verb === "bid") return `bid ${contractText(table, arg)}`;
  if (verb === "trump") return `trumps ${suitText(table, arg)}`;
  if (!arg && (verb === "discard" || verb === "give")) return `${verb} a card`;
  return arg ? `${verb} ${arg}` : verb;
}

function seatPanel(i, msg) {
  const { table, state: v, you } = msg;
  const badges = [];
  if (v.dealer === i) badges.push(el("span", { class: "badge" }, "dealer"));
  if (v.declarer === i) badges.push(el("span", { class: "badge decl" }, "declarer"));
  if (v.partner === i) badges.push(el("span", { class: "badge partner" }, "partner"));
  if ((v.sitting_out || []).includes(i)) badges.push(el("span", { class: "badge" }, "sits out"));
  const said = [...(v.actions || [])].reverse().find((a) => a.seat === i && a.phase !== "play");
  const exposed = v.exposed && v.exposed.seat === i && i !== you ? v.exposed.hand : null;
  const shown = (v.shown || []).filter((s) => s.seat === i).flatMap((s) => s.cards);
  const backs = exposed ? null : el("div", { class: "backs", title: `${v.hand_sizes[i]} cards` },
    Array.from({ length: v.hand_sizes[i] }, () => el("div", { class: "card back" })));
  return el("div", { class: `seat${v.to_move === i ? " turn" : ""}`, "data-seat": i },
    el("div", { class: "name" }, seatLabel(i, table.seats, you), badges),
    backs,
    exposed ? el("div", { class: "mini hand", title: "hand laid open" }, exposed.map((c) => cardEl(c, v.cards, table.suits))) : null,
    shown.length ? el("div", { class: "mini hand", title: "shown" }, shown.map((c) => cardEl(c, v.cards, table.suits))) : null,
    el("div", { class: "stats" }, `${v.tricks[i]} trick${v.tricks[i] === 1 ? "" : "s"}`, v.discard_counts[i] ? ` · changed ${v.discard_counts[i]}` : ""),
    el("div", { class: "said" }, said && v.phase !== "play" ? actionText(table, said.action) : ""));
}

function trickArea(msg) {
  const { table, state: v, you } = msg;
  const n = table.seats.length;
  const seq = (leader, cards) => cards.map((c, k) => ({ seat: playSeat(v, leader, k, n), card: c }));
  if (v.current_trick.length) {
    return el("div", { class: "trick", id: "trick" }, seq(v.trick_leader, v.current_trick).map((p) =>
      el("div", { class: "play" }, cardEl(p.card, v.cards, table.suits), el("span", {}, short(p.seat, you)))));
  }
  const last = v.trick_history[v.trick_history.length - 1];
  if (!last) {
    const centre = [];
    if (v.turned) centre.push(el("div", { class: "play" }, cardEl(v.turned, v.cards, table.suits), el("span", {}, "turned")));
    if (v.talon_size) centre.push(el("div", { class: "play" }, el("div", { class: "card back" }), el("span", {}, `talon · ${v.talon_size}`)));
    return el("div", { class: "trick" }, centre);
  }
  return el("div", {},
    el("div", { class: "trick last", id: "last-trick" }, seq(last.leader, last.cards).map((p) =>
      el("div", { class: `play${p.seat === last.winner ? " win" : ""}` }, cardEl(p.card, v.cards, table.suits),
        el("span", {}, short(p.seat, you))))),
    el("div", { class: "caption" }, `Last trick to ${short(last.winner, you)}`));
}

// The seat that played the k-th card of a trick: seats in the order of play, skipping those who sit out.
function playSeat(v, leader, k, n) {
  let s = leader;
  for (let i = 0; i < k; i++) {
    do { s = (s + 1) % n; } while ((v.sitting_out || []).includes(s));
  }
  return s;
}

function prompt(msg) {
  const { table, state: v, you } = msg;
  if (v.phase === "done") return "The deal is over.";
  const phase = humanize(v.phase);
  if (you !== null && v.to_move === you) {
    const verbs = new Set(v.controls.map((c) => c.verb));
    if (verbs.has("play")) return "Your turn: play a card.";
    if (verbs.has("discard")) return `Your turn (${phase}): click the cards to put away${verbs.has("draw") ? ", then draw" : ""}.`;
    if (verbs.has("give")) return "Your turn: choose the card to give.";
    return `Your turn: ${phase}.`;
  }
  return `${phase}: waiting for ${seatLabel(v.to_move, table.seats, you)}…`;
}

// Buttons for the legal actions that are not a card of the hand; card choices (a call, a demand) by verb.
function controlBar(msg) {
  const { table, state: v } = msg;
  const outside = v.controls.filter((c) => !c.in_hand);
  const words = outside.filter((c) => !c.card);
  const byVerb = new Map();
  for (const c of outside.filter((x) => x.card)) {
    if (!byVerb.has(c.verb)) byVerb.set(c.verb, []);
    byVerb.get(c.verb).push(c);
  }
  return el("div", { class: "controls", id: "controls" },
    words.map((c) => el("button", { class: c.verb === "pass" ? "pass" : "", "data-action": c.action, onclick: () => act(c.action) }, c.label)),
    [...byVerb.entries()].map(([verb, cs]) => el("div", { class: "choose" },
      el("div", { class: "choose-h" }, `${humanize(verb)} a card:`),
      el("div", { class: "choose-cards" }, cs.map((c) => cardEl(c.card, v.cards, table.suits,
        { tag: "button", class: "legal", "data-action": c.action, title: c.label, onclick: () => act(c.action) }))))));
}

function handRow(msg) {
  const { table, state: v } = msg;
  const byCard = new Map(v.controls.filter((c) => c.in_hand).map((c) => [c.card, c]));
  let group = null;
  return el("div", { class: `hand${v.hand.length > 14 ? " big" : ""}`, id: "hand" }, v.hand.map((name) => {
    const f = v.cards[name] || {};
    const g = f.trump ? "trump" : f.suit;
    const gap = group !== null && g !== group;
    group = g;
    const ctl = byCard.get(name);
    const reason = v.refused[name];
    if (ctl) return cardEl(name, v.cards, table.suits, { tag: "button", class: `legal${gap ? " gap" : ""}`, "data-action": ctl.action,
      title: ctl.label, onclick: () => act(ctl.action) });
    if (reason) return cardEl(name, v.cards, table.suits, { tag: "button", class: `refused${gap ? " gap" : ""}`, "aria-disabled": "true",
      title: reason, "data-reason": reason, onclick: () => toast(reason) });
    return cardEl(name, v.cards, table.suits, { tag: "button", class: `idle${gap ? " gap" : ""}`, tabindex: "-1" });
  }));
}

function infoBox(msg) {
  const { table, state: v, you } = msg;
  const rows = [["Contract", contractText(table, v.contract)],
    ["Declarer", v.declarer === null ? "—" : seatLabel(v.declarer, table.seats, you)],
    ["Trumps", v.trump ? suitText(table, v.trump) : "—"]];
  if (v.called) rows.push(["Called", v.called]);
  if (v.partner !== null && v.partner !== undefined) rows.push(["Partner", seatLabel(v.partner, table.seats, you)]);
  if (v.talon_size) rows.push(["Talon", `${v.talon_size} card${v.talon_size === 1 ? "" : "s"}`]);
  rows.push(["Pool", `${v.pool}`]);
  if (v.my_discards.length) rows.push(["You put away", v.my_discards.join(" ")]);
  if (v.my_draws.length) rows.push(["You drew", v.my_draws.join(" ")]);
  if (v.leftover_shown.length) rows.push(["Left in the stock", v.leftover_shown.join(" ")]);
  return el("div", { class: "box", id: "info" }, el("h3", {}, "This deal"),
    el("dl", { class: "kv" }, rows.flatMap(([k, x]) => [el("dt", {}, k), el("dd", {}, x)])));
}

// The values carried from deal to deal: those this deal began with and, once it is over, those for the next.
function sessionBox(msg) {
  const { table, state: v } = msg;
  if (!table.carry.length || !v.session) return null;
  const after = v.result ? v.result.session_after : null;
  const items = table.carry.flatMap((c) => [
    el("dt", { "data-name": c.name, title: c.doc }, c.label),
    el("dd", { class: "now", "data-name": c.name }, carriedText(table.suits, c.type, v.session[c.name]),
      after ? el("div", { class: "next small" }, `next deal: ${carriedText(table.suits, c.type, after[c.name])}`) : null),
    c.doc ? el("div", { class: "doc small" }, c.doc) : null]);
  return el("div", { class: "box", id: "session", "data-session": JSON.stringify(v.session) },
    el("h3", {}, "Carried from deal to deal"), el("dl", { class: "kv carried" }, items));
}

function historyBox(msg) {
  const { table, state: v, you } = msg;
  const items = [];
  let phase = null;
  for (const a of v.actions || []) {
    if (a.phase === "play") continue;
    if (a.phase !== phase) { phase = a.phase; items.push(el("li", { class: "phase-h" }, humanize(phase))); }
    items.push(el("li", {}, el("span", { class: "who" }, `${seatLabel(a.seat, table.seats, you)}: `), actionText(table, a.action)));
  }
  return el("div", { class: "box", id: "history" }, el("h3", {}, "Bidding and exchange"),
    items.length ? el("ul", { class: "plain" }, items) : el("div", { class: "muted" }, "Nothing yet."));
}

function tricksBox(msg) {
  const { table, state: v, you } = msg;
  if (!v.trick_history.length) return null;
  return el("div", { class: "box", id: "tricks" }, el("h3", {}, "Tricks"),
    el("div", { class: "tricklist mini" }, v.trick_history.map((t, k) => el("div", { class: "row" },
      el("span", { class: "small" }, `${k + 1}.`),
      t.cards.map((c) => cardEl(c, v.cards, table.suits)),
      el("span", { class: "w" }, `→ ${short(t.winner, you)}`)))));
}

function sheetBox(msg) {
  const { table, you } = msg;
  const n = table.seats.length;
  const head = el("tr", {}, el("th", {}, "Deal"), Array.from({ length: n }, (_, i) => el("th", {}, i === you ? "You" : `S${i}`)));
  const rows = table.sheet.map((d) => el("tr", { title: `${humanize(d.outcome)}${d.contract ? " · " + contractText(table, d.contract) : ""}` },
    el("td", {}, d.close ? "Session's close" : `${d.deal}. ${humanize(d.outcome)}`), d.payments.map((p) => el("td", {}, signed(p)))));
  const total = el("tr", { class: "total" }, el("td", {}, "Total"), table.ledger.map((p) => el("td", {}, signed(p))));
  return el("div", { class: "box", id: "sheet" }, el("h3", {}, `Score sheet · deal ${table.deal} of ${table.deals}`),
    el("table", { class: "sheet" }, el("thead", {}, head), el("tbody", {}, rows, total)),
    el("div", { class: "small", style: { marginTop: ".3rem" } }, `Pool: ${table.pool}`));
}

// The payment account: each transfer with its label and how its amount is made up.
function accountTable(msg) {
  const { table, state: v, you } = msg;
  if (!v.account || !v.account.length) return null;
  const who = (s) => (s === null ? "the pool" : seatLabel(s, table.seats, you));
  return el("div", { class: "account", id: "account" }, el("h3", {}, "The account"),
    el("table", {}, el("tbody", {}, v.account.map((e) => el("tr", {},
      el("td", {}, humanize(e.label)),
      el("td", {}, `${who(e.from)} → ${who(e.to)}`),
      el("td", { class: "amt" }, e.amount),
      el("td", { class: "why" }, e.why || ""))))));
}

function resultPanel(msg) {
  const { table, state: v, you } = msg;
  const r = v.result;
  if (!r) return null;
  const n = r.payments.length;
  const cls = (p) => (p > 0 ? "plus" : p < 0 ? "minus" : "");
  const deal = table.sheet.length;
  const q = `?t=${encodeURIComponent(token)}`;
  return el("div", { class: "result", id: "result", "data-result": JSON.stringify(r) },
    el("h2", {}, humanize(r.outcome), r.contract ? el("span", { class: "muted small" }, ` — ${contractText(table, r.contract)}${r.trump ? ", " + suitText(table, r.trump) : ""}`) : null),
    r.declarer !== null ? el("div", {}, `Declarer: ${seatLabel(r.declarer, table.seats, you)}`) : null,
    el("table", { id: "payments" }, el("thead", {}, el("tr", {}, el("th", {}, "Seat"), el("th", {}, "Tricks"), el("th", {}, "Pays / gets"))),
      el("tbody", {}, Array.from({ length: n }, (_, i) => el("tr", { "data-seat": i },
        el("td", {}, seatLabel(i, table.seats, you)), el("td", {}, r.tricks[i]),
        el("td", { class: cls(r.payments[i]) }, signed(r.payments[i])))))),
    el("div", { class: "small" }, `Pool ${r.pool_before} → ${r.pool_after}`),
    accountTable(msg),
    el("div", { class: "actions" },
      you !== null && !table.finished ? el("button", { id: "next", onclick: nextDeal }, "Next deal") : null,
      table.finished ? el("strong", {}, "The session is over.") : null,
      el("a", { class: "button secondary", href: `/replay?table=${encodeURIComponent(tableId)}&deal=${deal}&t=${encodeURIComponent(token)}` }, "Replay this deal"),
      el("a", { class: "button secondary", id: "download", download: `${tableId}-deal${deal}.json`,
        href: `/api/tables/${encodeURIComponent(tableId)}/deals/${deal}/record${q}` }, "Download the record")));
}

function render(msg) {
  const { table, state: v, you } = msg;
  document.body.dataset.phase = v.phase;
  document.body.dataset.toMove = v.to_move;
  document.body.dataset.moves = `${table.deal}:${(v.actions || []).length}`;
  const n = table.seats.length;
  const others = you === null ? [...Array(n).keys()] : Array.from({ length: n - 1 }, (_, k) => (you + 1 + k) % n);
  const mine = you === null ? el("div", { class: "me" }, el("div", { class: "muted" }, "You are watching: only what every player sees is shown."))
    : el("div", { class: `me${v.to_move === you ? " turn" : ""}`, "data-seat": you },
      el("div", { class: "name" }, el("strong", {}, `You · seat ${you}`), " ",
        v.dealer === you ? el("span", { class: "badge" }, "dealer") : null,
        v.declarer === you ? el("span", { class: "badge decl" }, "declarer") : null,
        v.partner === you ? el("span", { class: "badge partner" }, "partner") : null,
        el("span", { class: "small", style: { marginLeft: ".5rem" } }, `${v.tricks[you]} trick${v.tricks[you] === 1 ? "" : "s"}`)),
      handRow(msg));
  app.replaceChildren(header(), el("div", { class: "game" },
    el("section", {},
      el("div", { class: "topline" }, el("span", { class: "title" }, table.title),
        el("span", { class: "chip mono" }, table.variant), el("span", { class: "chip phase", id: "phase" }, humanize(v.phase)),
        el("span", { class: "chip" }, `Deal ${table.deal}/${table.deals}`)),
      el("div", { class: "opponents" }, others.map((i) => seatPanel(i, msg))),
      el("div", { class: "centre" }, trickArea(msg)),
      resultPanel(msg),
      el("div", { class: "prompt", id: "prompt" }, prompt(msg)),
      controlBar(msg),
      mine,
      el("div", { class: "status", id: "status" })),
    el("aside", { class: "aside" }, infoBox(msg), sessionBox(msg), historyBox(msg), tricksBox(msg), sheetBox(msg))));
}

connect();
