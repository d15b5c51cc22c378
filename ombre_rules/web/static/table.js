// The game screen: one seat's view (or the spectators'), live over a WebSocket; actions go by POST.
import { api, el, header, humanize, keepFocus, kept, toast } from "./common.js";
import {
  choosePanel, controlBar, handRow, historyBox, infoBox, invitePanel, promptText, resultPanel, seatPanel, sessionBox,
  sheetBox, teamOf, trickArea, tricksBox,
} from "./table_view.js";

const app = document.getElementById("app");
const tableId = location.pathname.split("/")[2];
const token = new URLSearchParams(location.search).get("t") || "";
const base = `/api/tables/${encodeURIComponent(tableId)}`;
let retry = 0;
let current = null;
let received = 0;

// The page's own state, shared with the parts it draws.
const page = {
  token,
  selected: new Set(), // cards chosen for a discard or a lay-away, not sent yet
  hold: null, // a trick just completed, kept in view for a moment
  controlDoc: "",
  phaseDoc: "",
  timerText: "",
  busy: false,
  async act(actions) {
    if (page.busy) return;
    page.busy = true;
    document.body.classList.add("busy");
    try {
      await api(`${base}/act`, { json: actions.length === 1 ? { token, action: actions[0] } : { token, actions } });
      page.selected.clear();
    } catch (e) {
      toast(e.message, "error");
    } finally {
      page.busy = false;
      document.body.classList.remove("busy");
    }
  },
  pick(card) {
    if (card === null) page.selected.clear();
    else if (page.selected.has(card)) page.selected.delete(card);
    else if (page.selected.size < ((current && current.state.choose) || { max: 0 }).max) page.selected.add(card);
    else toast(`You may choose ${current.state.choose.max} at most: take one back first.`);
    render();
  },
  tell(text) { toast(text); },
  async nextDeal() {
    try { await api(`${base}/next`, { json: { token } }); } catch (e) { toast(e.message, "error"); }
  },
  async rematch() {
    try {
      const r = await api(`${base}/rematch`, { json: { token } });
      if (r.url) location.href = r.url;
    } catch (e) { toast(e.message, "error"); }
  },
};

const settings = { trickPause: kept.get("trickPause", 2) };

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${encodeURIComponent(tableId)}?t=${encodeURIComponent(token)}`);
  ws.onmessage = (ev) => { retry = 0; arrive(JSON.parse(ev.data)); };
  ws.onclose = async () => {
    if (!current) {
      try { await api(`${base}?t=${encodeURIComponent(token)}`); } catch (e) {
        app.replaceChildren(header(), el("main", { class: "page" }, el("h1", {}, "This table cannot be opened"),
          el("pre", { class: "errors", id: "fatal" }, e.message)));
        return;
      }
    }
    const s = document.getElementById("status");
    if (s) s.textContent = "Connection lost, reconnecting…";
    retry = Math.min(retry + 1, 5);
    setTimeout(connect, 400 * retry);
  };
}

// A new view: keep a trick just completed in sight for a moment, drop chosen cards that no longer count.
function arrive(msg) {
  const before = current;
  current = msg;
  received = Date.now();
  const v = msg.state;
  const sameDeal = before && before.table.deal === msg.table.deal;
  if (sameDeal && v.trick_history.length > before.state.trick_history.length && settings.trickPause > 0) {
    const t = v.trick_history[v.trick_history.length - 1];
    page.hold = { ...t, index: v.trick_history.length - 1, key: `${msg.table.deal}:${v.trick_history.length}` };
    const key = page.hold.key;
    setTimeout(() => slide(key), settings.trickPause * 1000);
  }
  if (!sameDeal) page.hold = null;
  const turn = `${msg.table.deal}:${v.phase}:${v.to_move}`;
  if (turn !== page.turn) { page.turn = turn; page.controlDoc = ""; }
  const legal = new Set(v.controls.filter((c) => c.verb === "discard").map((c) => c.card));
  for (const c of [...page.selected]) if (!legal.has(c)) page.selected.delete(c);
  ensureName(msg);
  render();
}

// The trick kept in sight slides to its winner, then the table goes on.
function slide(key) {
  if (!page.hold || page.hold.key !== key) return;
  const trick = document.getElementById("trick");
  const to = document.querySelector(`.seat[data-seat="${page.hold.winner}"], .me[data-seat="${page.hold.winner}"]`);
  if (trick && to && !matchMedia("(prefers-reduced-motion: reduce)").matches) {
    const a = trick.getBoundingClientRect();
    const b = to.getBoundingClientRect();
    trick.style.setProperty("--dx", `${b.left + b.width / 2 - (a.left + a.width / 2)}px`);
    trick.style.setProperty("--dy", `${b.top + b.height / 2 - (a.top + a.height / 2)}px`);
    trick.classList.add("slide");
  }
  setTimeout(() => { if (page.hold && page.hold.key === key) { page.hold = null; render(); } }, 450);
}

// Once per seat: the name this browser keeps is the seat's name at the table.
let named = false;
function ensureName(msg) {
  const mine = kept.get("name", "");
  if (named || msg.you === null || !mine || msg.table.names[msg.you] === mine) return;
  named = true;
  api(`${base}/name`, { json: { token, name: mine } }).catch(() => {});
}

function liveSay(text) {
  let live = document.getElementById("live");
  if (!live) { live = el("div", { id: "live", class: "sr-only", "aria-live": "polite", role: "status" }); document.body.append(live); }
  if (live.textContent !== text) live.textContent = text;
}

function rulesUrl(msg) {
  const q = new URLSearchParams(msg.table.options).toString();
  return `/api/variants/${encodeURIComponent(msg.table.key)}/rulebook${q ? "?" + q : ""}`;
}

// The rules beside the table, at the section of the phase in play (a frame kept while the view changes).
function openRules(msg) {
  let panel = document.getElementById("rules-panel");
  const src = rulesUrl(msg) + (msg.state.section ? `#${msg.state.section}` : "");
  if (!panel) {
    const frame = el("iframe", { class: "book", id: "rules-frame", title: "The rules", sandbox: "allow-same-origin" });
    panel = el("aside", { id: "rules-panel", role: "dialog", "aria-label": "The rules" },
      el("div", { class: "rules-head" }, el("strong", {}, "The rules"),
        el("button", { class: "secondary", id: "rules-close", onclick: () => { panel.hidden = true; document.getElementById("rules-open")?.focus(); } }, "Close")),
      frame);
    document.body.append(panel);
  }
  panel.hidden = false;
  const frame = document.getElementById("rules-frame");
  if (frame.getAttribute("src") !== src) frame.setAttribute("src", src);
  document.getElementById("rules-close").focus();
}

function settingsBox(msg) {
  const name = el("input", { type: "text", id: "my-name", maxlength: "24", value: kept.get("name", ""), "data-focus": "name",
    autocomplete: "nickname", placeholder: "shown to the others" });
  const save = async () => {
    kept.set("name", name.value.trim());
    if (msg.you !== null) { try { await api(`${base}/name`, { json: { token, name: name.value } }); } catch (e) { toast(e.message, "error"); } }
  };
  const pause = el("select", { id: "trick-pause", "data-focus": "pause", onchange: () => { settings.trickPause = Number(pause.value); kept.set("trickPause", settings.trickPause); } },
    [0, 1, 2, 3, 5].map((s) => el("option", { value: String(s), selected: settings.trickPause === s }, s ? `${s} s` : "no pause")));
  return el("details", { class: "box", id: "settings" }, el("summary", {}, "Settings"),
    el("div", { class: "form-row" }, el("label", { for: "my-name" }, "Your name"), el("div", {}, name, " ",
      el("button", { class: "secondary", "data-focus": "save-name", onclick: save }, "Save"))),
    el("div", { class: "form-row" }, el("label", { for: "trick-pause" }, "A finished trick stays"), pause));
}

function timerLine(msg) {
  const t = msg.table;
  if (!t.timer || msg.state.phase === "done") return "";
  const left = Math.round(t.timer - t.turn_age - (Date.now() - received) / 1000);
  return left > 0 ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left` : "time is up";
}

function render() {
  const msg = current;
  if (!msg) return;
  const { table, state: v, you } = msg;
  document.body.dataset.phase = v.phase;
  document.body.dataset.toMove = v.to_move;
  document.body.dataset.moves = `${table.deal}:${(v.actions || []).length}`;
  page.phaseDoc = v.phase_doc;
  page.timerText = timerLine(msg);
  const n = table.seats.length;
  const others = you === null ? [...Array(n).keys()] : Array.from({ length: n - 1 }, (_, k) => (you + 1 + k) % n);
  const prompt = promptText(msg, page);
  const trumps = v.trump ? table.suits.find((s) => s.name === v.trump) : null;
  const legend = v.hand.some((c) => (v.cards[c] || {}).trump)
    ? el("span", { class: "legend", id: "trump-legend" }, "★ = a trump", trumps ? ` (trumps: ${trumps.symbol} ${humanize(trumps.name)}, and every card with a star)` : "") : null;
  const mine = you === null ? el("div", { class: "me" }, el("div", { class: "muted" }, "You are watching: only what every player sees is shown."))
    : el("div", { class: `me${v.to_move === you ? " turn" : ""}`, "data-seat": you },
      el("div", { class: "name" }, el("strong", {}, `You · ${table.names[you] || "seat " + you}`), " ",
        v.dealer === you ? el("span", { class: "badge" }, "dealer") : null,
        v.declarer === you ? el("span", { class: "badge decl" }, "declarer") : null,
        v.partner === you ? el("span", { class: "badge partner" }, "partner") : null,
        teamOf(v, you) !== null ? el("span", { class: "badge" }, `team ${teamOf(v, you) + 1}`) : null,
        (v.sitting_out || []).includes(you) ? el("span", { class: "badge" }, "sits out") : null,
        el("span", { class: "small", style: { marginLeft: ".5rem" } }, `${v.tricks[you]} trick${v.tricks[you] === 1 ? "" : "s"}`),
        v.to_move === you && page.timerText ? el("span", { class: "clock" }, page.timerText) : null, legend),
      choosePanel(msg, page),
      handRow(msg, page));
  const result = resultPanel(msg, page);
  keepFocus(() => app.replaceChildren(header(), el("div", { class: "game" },
    el("section", { "aria-label": "the table" },
      el("div", { class: "topline" }, el("h1", { class: "title" }, table.title),
        el("span", { class: "chip mono" }, table.variant),
        el("span", { class: "chip phase", id: "phase", title: v.phase_doc }, humanize(v.phase)),
        el("span", { class: "chip" }, `Deal ${table.deal}/${table.deals}`),
        el("button", { class: "chip-button", id: "rules-open", "data-focus": "rules", onclick: () => openRules(msg) }, "Rules")),
      el("p", { class: "phase-doc", id: "phase-doc" }, v.phase_doc, " ",
        v.section ? el("a", { href: rulesUrl(msg) + `#${v.section}`, onclick: (e) => { e.preventDefault(); openRules(msg); } }, "The rules of this phase") : null),
      invitePanel(msg, kept.get(`links.${table.id}`)),
      result,
      el("div", { class: "opponents" }, others.map((i) => seatPanel(i, msg, page))),
      el("div", { class: "centre" }, trickArea(msg, page)),
      el("div", { class: "prompt", id: "prompt" }, prompt),
      you !== null && v.to_move === you ? controlBar(msg, page) : null,
      mine,
      el("div", { class: "status", id: "status" })),
    el("aside", { class: "aside" }, infoBox(msg), sessionBox(msg), historyBox(msg), tricksBox(msg), sheetBox(msg), settingsBox(msg)))));
  liveSay(prompt);
  if (result && !document.activeElement?.dataset?.focus && v.phase === "done" && !page.shownResult) {
    page.shownResult = `${table.deal}`;
    result.scrollIntoView({ block: "start" });
  }
  if (v.phase !== "done") page.shownResult = null;
}

setInterval(() => {
  if (!current || !current.table.timer) return;
  const line = timerLine(current);
  if (line !== page.timerText) { page.timerText = line; for (const c of document.querySelectorAll(".clock")) c.textContent = line; }
}, 1000);

connect();
