// The replay viewer: step through a finished deal of a table, or a record file, with every hand open.
import { api, cardEl, cardText, carriedText, el, header, humanize, signed } from "./common.js";

const app = document.getElementById("app");
const params = new URLSearchParams(location.search);

function seatName(i) { return `Seat ${i}`; }

// An action with its card as people read it ("play A♠"), from a frame's faces.
function said(text, faces) {
  const [verb, arg] = text.split(" ");
  return arg ? `${verb} ${cardText(arg, faces)}` : verb;
}

function viewer(data) {
  const frames = data.frames;
  let k = 0;
  const slider = el("input", { type: "range", min: "0", max: String(frames.length - 1), value: "0", id: "step" });
  const label = el("span", { id: "step-label", class: "mono" });
  const board = el("div", { id: "board" });
  const card = (c, f) => cardEl(c, f.cards, data.suits);
  const contract = (name) => (name ? data.contracts[name] || humanize(name) : "—");
  // the values the session carried into the deal, and (at its end) those it leaves for the next
  const carried = (f) => (data.carry.length ? el("div", { class: "small", id: "replay-session" },
    el("strong", {}, "Carried from deal to deal: "), data.carry.map((c) => `${c.label} ${carriedText(data.suits, c.type, data.session[c.name])}` +
      (f.result ? ` (next deal: ${carriedText(data.suits, c.type, f.result.session_after[c.name])})` : "")).join(" · ")) : null);
  function show() {
    const f = frames[k];
    slider.value = String(k);
    label.textContent = `${k} / ${frames.length - 1}`;
    const what = f.action ? `${seatName(f.by)}: ${said(f.action, f.cards)}` : "The deal as dealt";
    const trick = f.trick.length ? f.trick : (f.last_trick ? f.last_trick.cards : []);
    board.replaceChildren(
      el("div", { class: "panel" },
        el("div", { id: "frame-action", style: { fontWeight: 600 } }, what),
        el("div", { class: "muted small" }, `${humanize(f.phase)} · contract ${contract(f.contract)}` +
          (f.trump ? ` · trumps ${humanize(f.trump)}` : "") + (f.declarer !== null ? ` · declarer ${seatName(f.declarer)}` : "")),
        el("h2", {}, "Hands"),
        el("div", { class: "replay-hands mini" }, f.hands.map((h, i) => el("div", { class: "rh", "data-seat": i },
          el("div", { class: "who" }, `${seatName(i)} · ${f.tricks[i]} tr.`, f.to_move === i ? " ◂" : ""),
          el("div", { class: "cards" }, h.map((c) => card(c, f)), f.discards[i].length ? el("span", { class: "muted small" }, ` put away: ${f.discards[i].map((c) => cardText(c, f.cards)).join(" ")}`) : null)))),
        trick.length ? el("h2", {}, f.trick.length ? "Trick in play" : "Last trick") : null,
        trick.length ? el("div", { class: "replay-hands mini" }, el("div", { class: "cards", style: { display: "flex", gap: ".3rem" } }, trick.map((c) => card(c, f)),
          !f.trick.length && f.last_trick ? el("span", { class: "muted small" }, ` won by ${seatName(f.last_trick.winner)}`) : null)) : null,
        f.result ? el("div", { class: "ok-box", id: "replay-result", "data-result": JSON.stringify(f.result) },
          el("strong", {}, humanize(f.result.outcome)), ` · payments ${f.result.payments.map(signed).join(", ")} · pool ${f.result.pool_before} → ${f.result.pool_after}`) : null,
        carried(f)),
      el("div", { class: "panel steps" }, el("h2", { style: { marginTop: 0 } }, "Actions"),
        el("ol", { id: "steps" }, frames.slice(1).map((g, i) => el("li", { class: i + 1 === k ? "on" : "", onclick: () => { k = i + 1; show(); } },
          `${seatName(g.by)}: ${said(g.action, g.cards)}`)))));
    const list = board.querySelector("#steps");
    const on = list.querySelector("li.on");
    if (on) list.scrollTop = on.offsetTop - list.clientHeight / 2;
  }
  const go = (d) => { k = Math.max(0, Math.min(frames.length - 1, k + d)); show(); };
  slider.addEventListener("input", () => { k = parseInt(slider.value, 10); show(); });
  document.addEventListener("keydown", (e) => { if (e.key === "ArrowRight") go(1); if (e.key === "ArrowLeft") go(-1); });
  show();
  return el("div", {},
    el("p", {}, el("code", { class: "canonical" }, data.variant), " ", el("span", { class: "muted small" }, data.title)),
    el("div", { class: "stepper" },
      el("button", { id: "first", class: "secondary", onclick: () => { k = 0; show(); } }, "Start"),
      el("button", { id: "back", class: "secondary", onclick: () => go(-1) }, "◀ Back"),
      el("button", { id: "forward", onclick: () => go(1) }, "Forward ▶"),
      el("button", { id: "last", class: "secondary", onclick: () => { k = frames.length - 1; show(); } }, "End"),
      slider, label),
    board);
}

async function render() {
  const out = el("div", { id: "viewer" });
  const err = el("div");
  const file = el("input", { type: "file", accept: ".json", id: "record-file" });
  file.addEventListener("change", async () => {
    err.replaceChildren();
    const f = file.files[0];
    if (!f) return;
    try {
      out.replaceChildren(viewer(await api("/api/replay",
        { method: "POST", body: await f.arrayBuffer(), headers: { "Content-Type": "application/json" } })));
    } catch (e) {
      out.replaceChildren();
      err.append(el("pre", { class: "errors", id: "replay-errors" }, e.message));
    }
  });
  app.replaceChildren(header("replay"), el("main", { class: "page" },
    el("h1", {}, "Replay a deal"),
    el("p", { class: "muted" }, "Open a record (", el("code", {}, "--record"), " JSON): it is checked as ",
      el("code", {}, "ombre replay"), " checks it, then you can step through it with every hand open."),
    el("div", { class: "panel" }, file, err), out));
  const t = params.get("table");
  if (t) {
    try {
      out.replaceChildren(viewer(await api(`/api/tables/${encodeURIComponent(t)}/deals/${encodeURIComponent(params.get("deal") || "1")}/replay?t=${encodeURIComponent(params.get("t") || "")}`)));
    } catch (e) {
      err.append(el("pre", { class: "errors" }, e.message));
    }
  }
}

render();
