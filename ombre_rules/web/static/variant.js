// A variant page: sitting down at a new table (seats, deals, a move timer), the options, the diff against another
// variant, and the rulebook.
import { api, el, header, humanize, kept } from "./common.js";

const app = document.getElementById("app");
const key = decodeURIComponent(location.pathname.replace(/^\/variant\//, ""));

function optionQuery(choices) {
  return new URLSearchParams(choices).toString();
}

// A frame for a generated page (rulebook, diff): its own styles, no scripts, as tall as its content.
function frame(id, title, tallest) {
  const f = el("iframe", { class: "book", id, sandbox: "allow-same-origin", title });
  f.addEventListener("load", () => {
    const doc = f.contentDocument;
    if (!doc || !doc.documentElement) return;
    const h = doc.documentElement.scrollHeight + 20;
    f.style.height = `${tallest ? Math.min(h, Math.round(window.innerHeight * tallest)) : h}px`;
  });
  return f;
}

// The game in a paragraph (the file's doc): its first sentence, the rest a click away on a phone.
function about(doc, wide) {
  const cut = doc.search(/[.;]\s/);
  const head = cut > 0 ? doc.slice(0, cut + 1) : doc;
  const rest = cut > 0 ? doc.slice(cut + 2) : "";
  if (!rest) return el("p", { class: "lead", id: "about" }, head);
  return el("details", { class: "lead", id: "about", open: wide || null }, el("summary", {}, head), el("p", {}, rest));
}

// the bots that think for a budget of seconds a decision
const thinks = (kind) => kind === "pimc" || kind === "pimcdd";

function seatPicker(i, first) {
  const id = `seat-${i}`;
  const kind = el("select", { "data-seat": i, class: "seat-kind", id },
    el("option", { value: "you", selected: first }, "You (this browser)"),
    el("option", { value: "human" }, "Another person (gets a link)"),
    el("option", { value: "random" }, "Bot: random"),
    el("option", { value: "greedy", selected: !first }, "Bot: greedy"),
    el("option", { value: "pimc" }, "Bot: Monte-Carlo"),
    el("option", { value: "pimcdd" }, "Bot: double-dummy (strongest)"));
  const budget = el("input", { type: "number", min: "0.2", max: "10", step: "0.1", value: "1", class: "budget", id: `${id}-budget`,
    "aria-label": `seconds a decision of seat ${i}'s bot`, style: { width: "5rem" } });
  const unit = el("span", { class: "muted small budget-l" }, " s a move");
  const show = () => { budget.hidden = unit.hidden = !thinks(kind.value); };
  kind.addEventListener("change", show);
  show();
  return { row: el("div", { class: "form-row" }, el("label", { for: id }, `Seat ${i}`), el("div", {}, kind, " ", budget, unit)), kind, budget };
}

// The links of a new table: each other person's, the spectators', and the way to one's own seat.
function linksBox(t, mine) {
  const full = (u) => location.origin + u;
  const row = (label, url, cls) => el("li", {}, `${label}: `,
    el("input", { readonly: true, value: full(url), class: cls, "aria-label": `link: ${label}`, onclick: (e) => e.target.select() }),
    el("button", { class: "secondary", type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(full(url)) }, "Copy"));
  const others = t.seats.filter((s) => s.url && s.seat !== mine);
  return el("div", { class: "ok-box", id: "links" },
    el("strong", {}, "Table ready. "), others.length ? "Send each person the link of their seat (it is their seat: keep yours to yourself)." : "",
    el("ul", { class: "links" },
      others.map((s) => row(`Seat ${s.seat}`, s.url, "seat-link")),
      row("Spectators", t.spectator, "spectator-link")),
    mine >= 0 ? el("a", { class: "button", id: "go-seat", href: t.seats[mine].url }, "Sit down at my seat") : null);
}

async function render() {
  let v;
  try {
    v = await api(`/api/variants/${encodeURIComponent(key)}`);
  } catch (e) {
    app.replaceChildren(header(), el("main", { class: "page" }, el("h1", {}, "Variant"), el("pre", { class: "errors" }, e.message)));
    return;
  }
  if (v.errors) {
    app.replaceChildren(header(), el("main", { class: "page" }, el("h1", {}, v.title),
      el("p", {}, "This file cannot be played on this server now:"), el("pre", { class: "errors", id: "variant-errors" }, v.errors.join("\n"))));
    return;
  }
  const choices = {};
  const canonical = el("code", { class: "canonical", id: "canonical" }, v.variant);
  const optErr = el("div", { id: "option-errors" });
  const optForm = el("div", { id: "options" });
  for (const o of v.options) {
    const id = `opt-${o.key}`;
    const sel = el("select", { name: o.key, id, "data-option": o.key },
      o.choices.map((c) => el("option", { value: c, selected: c === o.default }, humanize(c) + (c === o.default ? " (default)" : ""))));
    // an option that takes a whole number within a range: a last entry of the list opens a number field
    const inRange = o.range && !o.choices.includes(o.default);
    const num = o.range ? el("input", { type: "number", min: String(o.range.min), max: String(o.range.max), step: "1",
      id: `${id}-number`, "aria-label": `${humanize(o.key)}: a number from ${o.range.min} to ${o.range.max}`,
      value: inRange ? o.default : String(o.range.min), hidden: inRange ? null : "", style: { width: "6rem" } }) : null;
    if (o.range) {
      sel.append(el("option", { value: "", selected: inRange || null },
        `a number from ${o.range.min} to ${o.range.max}` + (inRange ? ` (default ${o.default})` : "")));
    }
    const picked = () => (o.range && sel.value === "" ? String(parseInt(num.value, 10)) : sel.value);
    const changed = async () => {
      if (num) num.hidden = sel.value !== "";
      const value = picked();
      if (value === o.default) delete choices[o.key]; else choices[o.key] = value;
      optErr.replaceChildren();
      try {
        const r = await api(`/api/variants/${encodeURIComponent(key)}?${optionQuery(choices)}`);
        canonical.textContent = r.variant;
        seatsFor(r.seats);
        loadBook();
      } catch (e) {
        optErr.replaceChildren(el("pre", { class: "errors" }, e.message));
      }
    };
    sel.addEventListener("change", changed);
    if (num) num.addEventListener("change", changed);
    optForm.append(el("div", { class: "form-row" }, el("label", { for: id }, humanize(o.key)),
      num ? el("div", { class: "option-range" }, sel, num) : sel,
      o.doc ? el("div", { class: "doc" }, o.doc) : null));
  }

  const seatsBox = el("div", { id: "seats" });
  let pickers = [];
  function seatsFor(n) {
    if (pickers.length === n) return;
    pickers = Array.from({ length: n }, (_, i) => seatPicker(i, i === 0));
    seatsBox.replaceChildren(...pickers.map((p) => p.row));
  }
  seatsFor(v.seats);
  const deals = el("input", { type: "number", min: "1", max: "100", value: String(Math.min(v.deals || 4, 100)), id: "deals",
    title: "deals in the session (the variant's own number by default)", style: { width: "5rem" } });
  const timer = el("select", { id: "timer" }, [[0, "none"], [30, "30 s"], [60, "1 minute"], [120, "2 minutes"], [300, "5 minutes"]]
    .map(([s, t]) => el("option", { value: String(s) }, t)));
  const seed = el("input", { type: "text", placeholder: "random", id: "seed", inputmode: "numeric", style: { width: "8rem" } });
  const made = el("div", { id: "made", "aria-live": "polite" });
  const create = el("button", { id: "create", onclick: async () => {
    made.replaceChildren();
    const seats = pickers.map((p) => thinks(p.kind.value) ? `${p.kind.value}:${p.budget.value || 1}s` : (p.kind.value === "you" ? "human" : p.kind.value));
    const mine = pickers.findIndex((p) => p.kind.value === "you");
    const names = pickers.map((_, i) => (i === mine ? kept.get("name", "") : ""));
    const body = { variant: key, options: choices, seats, deals: parseInt(deals.value || "1", 10), timer: parseInt(timer.value, 10), names };
    if (seed.value.trim()) body.seed = parseInt(seed.value, 10);
    create.disabled = true;
    try {
      const t = await api("/api/tables", { json: body });
      kept.set(`links.${t.id}`, t);
      const at = mine >= 0 ? t.player_seats[mine] : mine;  // where "you" sit: a draw for seats may move you
      const others = t.seats.some((s) => s.url && s.seat !== at);
      if (at >= 0 && !others) { location.href = t.seats[at].url; return; }
      made.append(linksBox(t, at));
    } catch (e) {
      made.append(el("pre", { class: "errors" }, e.message));
    } finally {
      create.disabled = false;
    }
  } }, "Create the table");

  const book = frame("rulebook", "the rules", 0.8);
  function loadBook() {
    book.src = `/api/variants/${encodeURIComponent(key)}/rulebook?${optionQuery(choices)}`;
  }
  const all = await api("/api/variants");
  const against = el("select", { id: "against", "aria-label": "another variant" }, el("option", { value: "" }, "—"),
    all.filter((x) => x.key !== key && !x.errors).map((x) => el("option", { value: x.key, selected: x.key === v.base }, x.title)));
  const diff = frame("diff", "what differs");
  function loadDiff() {
    diff.hidden = !against.value;
    if (against.value) {
      diff.src = `/api/variants/${encodeURIComponent(key)}/diff?against=${encodeURIComponent(against.value)}&${optionQuery(choices)}`;
    }
  }
  against.addEventListener("change", loadDiff);
  const wide = matchMedia("(min-width: 821px)").matches;

  app.replaceChildren(header(), el("main", { class: "page" },
    el("h1", {}, v.title),
    v.doc ? about(v.doc, wide) : null,
    el("section", { class: "panel sit", "aria-labelledby": "sit-h" }, el("h2", { id: "sit-h", style: { marginTop: 0 } }, "Sit down"),
      seatsBox,
      el("div", { class: "form-row" }, el("label", { for: "deals" }, "Deals"), el("div", {}, deals)),
      el("div", { class: "form-row" }, el("label", { for: "timer" }, "Time for a move"), el("div", {}, timer,
        el("span", { class: "muted small" }, " shown to all; nothing is played for you"))),
      el("div", { class: "form-row" }, el("label", { for: "seed" }, "Seed"), el("div", {}, seed)),
      el("div", { class: "create-row" }, create, v.options.length ? el("span", { class: "muted small" }, " · options: as set below") : null),
      made),
    el("details", { class: "panel", id: "options-box", open: wide || null },
      el("summary", {}, el("h2", { class: "inline" }, `Options (${v.options.length})`)),
      el("p", { class: "small" }, "Variant string: ", canonical, " ", el("span", { class: "muted" }, `· ${v.seats} seats · ${v.origin} file ${v.file}`)),
      v.options.length ? optForm : el("p", { class: "muted small" }, "This variant declares no options."), optErr),
    el("h2", {}, "Rules"), el("section", { class: "panel" }, el("p", { class: "muted small" }, "Generated from the variant file with the options chosen above."), book),
    el("h2", {}, "Compared with"), el("section", { class: "panel" }, el("p", {}, el("label", { for: "against" }, "Another variant: "), against), diff)));
  loadBook();
  loadDiff();
}

render();
