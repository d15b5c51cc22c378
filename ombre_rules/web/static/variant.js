// A variant page: its rulebook, the diff against another variant, the options form, and a new table.
import { api, el, header, humanize } from "./common.js";

const app = document.getElementById("app");
const key = decodeURIComponent(location.pathname.replace(/^\/variant\//, ""));

function optionQuery(choices) {
  return new URLSearchParams(choices).toString();
}

// A frame for a generated page (rulebook, diff): its own styles, no scripts, as tall as its content.
function frame(id, tallest) {
  const f = el("iframe", { class: "book", id, sandbox: "allow-same-origin", title: id });
  f.addEventListener("load", () => {
    const doc = f.contentDocument;
    if (!doc || !doc.documentElement) return;
    const h = doc.documentElement.scrollHeight + 20;
    f.style.height = `${tallest ? Math.min(h, Math.round(window.innerHeight * tallest)) : h}px`;
  });
  return f;
}

// the bots that think for a budget of seconds a decision
const thinks = (kind) => kind === "pimc" || kind === "pimcdd";

function seatPicker(i, first) {
  const kind = el("select", { "data-seat": i, class: "seat-kind" },
    el("option", { value: "you", selected: first }, i === 0 ? "You (this browser)" : "You"),
    el("option", { value: "human" }, "Another person (gets a link)"),
    el("option", { value: "random" }, "Bot: random"),
    el("option", { value: "greedy", selected: !first }, "Bot: greedy"),
    el("option", { value: "pimc" }, "Bot: Monte-Carlo"),
    el("option", { value: "pimcdd" }, "Bot: double-dummy (strongest)"));
  const budget = el("input", { type: "number", min: "0.2", max: "10", step: "0.1", value: "1", class: "budget",
    title: "seconds a decision", style: { width: "5rem", display: "none" } });
  kind.addEventListener("change", () => { budget.style.display = thinks(kind.value) ? "" : "none"; });
  return { row: el("div", { class: "form-row" }, el("label", {}, `Seat ${i}`),
    el("div", {}, kind, " ", budget, el("span", { class: "muted small budget-l", style: { display: "none" } }, " s"))), kind, budget };
}

async function render() {
  let v;
  try {
    v = await api(`/api/variants/${encodeURIComponent(key)}`);
  } catch (e) {
    app.replaceChildren(header(), el("main", { class: "page" }, el("h1", {}, "Variant"), el("pre", { class: "errors" }, e.message)));
    return;
  }
  const choices = {};
  const canonical = el("code", { class: "canonical", id: "canonical" }, v.variant);
  const optErr = el("div");
  const optForm = el("div", { id: "options" });
  for (const o of v.options) {
    const sel = el("select", { name: o.key, "data-option": o.key },
      o.choices.map((c) => el("option", { value: c, selected: c === o.default }, humanize(c) + (c === o.default ? " (default)" : ""))));
    sel.addEventListener("change", async () => {
      if (sel.value === o.default) delete choices[o.key]; else choices[o.key] = sel.value;
      optErr.replaceChildren();
      try {
        const r = await api(`/api/variants/${encodeURIComponent(key)}?${optionQuery(choices)}`);
        canonical.textContent = r.variant;
        seatsFor(r.seats);
        loadBook();
      } catch (e) {
        optErr.replaceChildren(el("pre", { class: "errors" }, e.message));
      }
    });
    optForm.append(el("div", { class: "form-row" }, el("label", {}, humanize(o.key)), sel,
      o.doc ? el("div", { class: "doc" }, o.doc) : null));
  }
  if (!v.options.length) optForm.append(el("p", { class: "muted small" }, "This variant declares no options."));

  const seatsBox = el("div", { id: "seats" });
  let pickers = [];
  function seatsFor(n) {
    if (pickers.length === n) return;
    pickers = Array.from({ length: n }, (_, i) => seatPicker(i, i === 0));
    for (const p of pickers) p.kind.addEventListener("change", () => {
      p.row.querySelector(".budget-l").style.display = thinks(p.kind.value) ? "" : "none";
    });
    seatsBox.replaceChildren(...pickers.map((p) => p.row));
  }
  seatsFor(v.seats);
  const deals = el("input", { type: "number", min: "1", max: "100", value: String(Math.min(v.deals || 4, 100)), id: "deals",
    title: "deals in the session (the variant's own number by default)", style: { width: "5rem" } });
  const seed = el("input", { type: "text", placeholder: "random", id: "seed", style: { width: "8rem" } });
  const made = el("div", { id: "made" });
  const create = el("button", { id: "create", onclick: async () => {
    made.replaceChildren();
    const seats = pickers.map((p) => thinks(p.kind.value) ? `${p.kind.value}:${p.budget.value || 1}s` : (p.kind.value === "you" ? "human" : p.kind.value));
    const mine = pickers.findIndex((p) => p.kind.value === "you");
    const body = { variant: key, options: choices, seats, deals: parseInt(deals.value || "1", 10) };
    if (seed.value.trim()) body.seed = parseInt(seed.value, 10);
    create.disabled = true;
    try {
      const t = await api("/api/tables", { json: body });
      if (mine >= 0 && t.seats[mine].url) { location.href = t.seats[mine].url; return; }
      made.append(el("div", { class: "ok-box" }, el("strong", {}, "Table ready. "), "Send each person their link; keep yours.",
        el("ul", { class: "links" },
          t.seats.filter((s) => s.url).map((s) => el("li", {}, `Seat ${s.seat}: `, el("a", { href: s.url, class: "seat-link" }, "open"),
            el("input", { readonly: true, value: location.origin + s.url, onclick: (e) => e.target.select() }))),
          el("li", {}, "Spectators: ", el("a", { href: t.spectator, id: "spectator-link" }, "open"),
            el("input", { readonly: true, value: location.origin + t.spectator, onclick: (e) => e.target.select() })))));
    } catch (e) {
      made.append(el("pre", { class: "errors" }, e.message));
    } finally {
      create.disabled = false;
    }
  } }, "Create the table");

  const book = frame("rulebook", 0.8);
  function loadBook() {
    book.src = `/api/variants/${encodeURIComponent(key)}/rulebook?${optionQuery(choices)}`;
  }
  const all = await api("/api/variants");
  const against = el("select", { id: "against" }, el("option", { value: "" }, "—"),
    all.filter((x) => x.key !== key && !x.errors).map((x) => el("option", { value: x.key, selected: x.key === v.base }, x.title)));
  const diff = frame("diff");
  function loadDiff() {
    diff.style.display = against.value ? "" : "none";
    if (against.value) {
      diff.src = `/api/variants/${encodeURIComponent(key)}/diff?against=${encodeURIComponent(against.value)}&${optionQuery(choices)}`;
    }
  }
  against.addEventListener("change", loadDiff);

  app.replaceChildren(header(), el("main", { class: "page" },
    el("h1", {}, v.title),
    el("p", {}, "Variant string: ", canonical, " ", el("span", { class: "muted small" }, `· ${v.seats} seats · ${v.origin} file ${v.file}`)),
    el("div", { class: "two" },
      el("section", { class: "panel" }, el("h2", { style: { marginTop: 0 } }, "Options"), optForm, optErr),
      el("section", { class: "panel" }, el("h2", { style: { marginTop: 0 } }, "Sit down"),
        seatsBox,
        el("div", { class: "form-row" }, el("label", { for: "deals" }, "Deals"), el("div", {}, deals)),
        el("div", { class: "form-row" }, el("label", { for: "seed" }, "Seed"), el("div", {}, seed)),
        create, made)),
    el("h2", {}, "Compared with"), el("section", { class: "panel" }, el("p", {}, "Another variant: ", against), diff),
    el("h2", {}, "Rules"), el("section", { class: "panel" }, el("p", { class: "muted small" }, "Generated from the variant file with the options chosen above."), book)));
  loadBook();
  loadDiff();
}

render();
